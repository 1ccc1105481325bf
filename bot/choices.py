"""A member's own choices (``/spel kortbilder``, ``/spel turpåminnelse``, ``/spel tvingade``):
each is on until the member turns it off, read from the database once and then kept here."""

from __future__ import annotations

from bot.storage import MemberChoice, Storage


class MemberChoices:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._known: dict[tuple[MemberChoice, int], bool] = {}

    async def get(self, choice: MemberChoice, user_id: int) -> bool:
        """Whether the member keeps ``choice`` on."""
        key = (choice, user_id)
        if key not in self._known:
            self._known[key] = await self.storage.member_choice(choice, user_id)
        return self._known[key]

    async def set(self, choice: MemberChoice, user_id: int, on: bool) -> None:
        await self.storage.set_member_choice(choice, user_id, on)
        self._known[(choice, user_id)] = on
