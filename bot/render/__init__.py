"""Rendering: the only code that turns games' language-neutral facts into text (later: embeds)."""
