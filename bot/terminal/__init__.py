"""Kortbord's terminal face: one person at a table against computer players (``kortbord play``).
It imports the core (sessions' games, rendering, thinking); the core never imports it.
"""
