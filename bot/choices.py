"""A member's own choices (``/spel kortbilder``, ``/spel turpåminnelse``, ``/spel tvingade``):
each is on until the member turns it off, read from the database once and then kept here.

Members asking at the same moment (a burst of thousands of tables, each asking whether its next
member lets the table play their forced card) share one read, as their actions share one commit.
"""

from __future__ import annotations

import asyncio

from bot.storage import MemberChoice, Storage


class MemberChoices:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._known: dict[tuple[MemberChoice, int], bool] = {}
        self._asked: dict[MemberChoice, dict[int, asyncio.Future[bool]]] = {}
        """The members waiting for the next read of each choice."""
        self._reads: set[asyncio.Task[None]] = set()

    async def get(self, choice: MemberChoice, user_id: int) -> bool:
        """Whether the member keeps ``choice`` on; raises ``StorageError`` when it cannot be
        read (nothing is kept: it is read again the next time)."""
        key = (choice, user_id)
        if key in self._known:
            return self._known[key]
        loop = asyncio.get_running_loop()
        asked = self._asked.get(choice)
        if asked is None:
            asked = self._asked[choice] = {}
            reading = loop.create_task(self._read(choice), name="member choices")
            self._reads.add(reading)
            reading.add_done_callback(self._reads.discard)
        answer = asked.get(user_id)
        if answer is None:
            answer = asked[user_id] = loop.create_future()
            answer.add_done_callback(_retrieved)
        return await asyncio.shield(answer)

    async def _read(self, choice: MemberChoice) -> None:
        await asyncio.sleep(0)  # the members asking at this same moment join the read
        asked = self._asked.pop(choice)
        try:
            found = await self.storage.member_choices(choice, sorted(asked))
        except Exception as error:  # the askers raise it (a StorageError: the database away)
            for answer in asked.values():
                answer.set_exception(error)
            return
        for user_id, answer in asked.items():
            # a choice set while it was being read is the member's latest word
            on = self._known.setdefault((choice, user_id), found[user_id])
            answer.set_result(on)

    async def set(self, choice: MemberChoice, user_id: int, on: bool) -> None:
        await self.storage.set_member_choice(choice, user_id, on)
        self._known[(choice, user_id)] = on


def _retrieved(answer: asyncio.Future[bool]) -> None:
    """An asker that gave up (cancelled) leaves its answer unread: no warning for it."""
    if not answer.cancelled():
        answer.exception()
