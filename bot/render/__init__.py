"""Rendering shared by every face: the text that turns games' language-neutral facts into words,
and the four-colour deck's colours (``colours``).

The pictures are drawn by the face that shows them (``bot/discord/images.py``); nothing here draws.
"""
