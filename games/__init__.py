"""Pure rules engines and computer players for Kortbord's card games.

Standard library only: no Discord, no asyncio, no database, no clock, no I/O. Games know seats
(0..n-1), never users. ``games.registry`` maps each game id to its spec.
"""
