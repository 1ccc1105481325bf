"""Errors meant for the member who caused them: a catalog key and its arguments.

Raised by the session manager and the commands. Each face answers them in the member's language
in one place: in Discord one helper (``bot.discord.replies.answer_errors``, ephemeral), on the web
table the hub's ``refused`` message, in the terminal the refusal of an option before play starts.
Anything else that goes wrong is a bug and is logged with its traceback.
"""

from __future__ import annotations

from games.core import ArgValue, Msg


class UserError(Exception):
    """Something the member can fix or should know; nothing was changed."""

    def __init__(self, key: str, **args: ArgValue) -> None:
        super().__init__(key)
        self.msg = Msg.of(f"errors.{key}", **args)

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.msg.args)
        return f"{self.msg.key}({args})"
