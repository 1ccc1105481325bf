"""Kortbord's service layer: the command line, the terminal table, and (later) the Discord bot.

It asks the games what is legal and secret; it never decides either itself.
"""
