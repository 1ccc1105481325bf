"""Kortbord's Discord face: the bot client, its slash commands (``cogs/``), the table message and
hand panels (``views/``), the listener that keeps them current, and the one place that answers
members (``replies``). It imports the core (sessions, storage, rendering); the core never
imports it.
"""
