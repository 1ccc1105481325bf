"""The README's invite link asks for every permission a feature uses, and its table says why."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot.discord import permissions
from bot.i18n import catalog

README = Path(__file__).resolve().parents[3] / "README.md"


def test_the_invite_asks_for_every_permission_a_feature_uses_and_nothing_else() -> None:
    text = README.read_text(encoding="utf-8")
    asked = {
        int(value) for value in re.findall(r"oauth2/authorize\?[^\s`]*permissions=(\d+)", text)
    }
    assert asked == {permissions.INVITE.value}
    assert permissions.INVITE.attach_files  # every table update uploads its picture
    for needed in (permissions.TABLE, permissions.THREAD_TABLE, permissions.DAILY_TABLE):
        assert permissions.missing(permissions.INVITE, needed) == []


def test_the_readme_table_names_each_permission_with_its_value() -> None:
    text = README.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| ([A-Z][A-Za-z ]+) \| (\d+) \| \S", text, flags=re.MULTILINE))
    english = catalog("en")
    expected = {
        english.text(f"permission.{name}"): str(getattr(discord.Permissions, name).flag)
        for name in permissions.EVERY
    }
    assert rows == expected
