"""Kortbord's table service: the core (sessions, storage, clock, ratings, catalogs, text), put
together once in ``root.py``, and its faces, each in its own package: ``discord/`` (the bot) and
``web/`` (the Activity), both faces of the session manager; beside them ``terminal/``
(``kortbord play``), an offline runner of one match through the games' contract. The core imports
none of them, and none imports another.

It asks the games what is legal and secret; it never decides either itself.
"""
