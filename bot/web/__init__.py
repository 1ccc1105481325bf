"""The web table: the Discord Activity's server (aiohttp) and its client (TypeScript)."""
