"""Benchmarks: engines (engines.py) and the Discord bot (bot.py); run with ./dev bench."""
