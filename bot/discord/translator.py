"""Slash-command names and descriptions from the catalogs: Swedish by default, English localized.

Commands are declared with :func:`cmd` (``cmd("game.new.name")``): the Swedish text of
``commands.<key>`` is what Discord shows by default, and :class:`CatalogTranslator` gives Discord
the English text of the same key for English clients.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import catalog

LOCALES = {
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
}


def cmd(key: str) -> app_commands.locale_str:
    """The Swedish text of ``commands.<key>``, carrying its key for the translator."""
    return app_commands.locale_str(catalog("sv").text(f"commands.{key}"), key=key)


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = LOCALES.get(locale)
        if key is None or lang is None:
            return None
        texts = catalog(lang)
        return texts.text(f"commands.{key}") if texts.has(f"commands.{key}") else None
