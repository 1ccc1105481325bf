"""Kortbord's table service: the core (sessions, storage, clock, ratings, catalogs, text) and its
three faces, each in its own package: ``discord/`` (the bot), ``web/`` (the Activity) and
``terminal/`` (``kortbord play``). The core imports no face, and no face imports another.

It asks the games what is legal and secret; it never decides either itself.
"""
