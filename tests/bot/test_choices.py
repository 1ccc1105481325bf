"""A member's own choices: read once and kept, and read together for members asking at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.choices import MemberChoices
from bot.storage import MemberChoice, Storage, StorageUnavailable, open_storage


@pytest.fixture
async def storage(any_database: Path | str) -> AsyncIterator[Storage]:
    opened = await open_storage(any_database)
    yield opened
    await opened.close()


async def test_members_asking_at_once_share_one_read_and_a_failed_read_keeps_nothing(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    await storage.set_member_choice("forced_cards", 2, False)
    choices = MemberChoices(storage)
    reads: list[list[int]] = []
    real = storage.member_choices

    async def counted(choice: MemberChoice, user_ids: Sequence[int]) -> dict[int, bool]:
        reads.append(list(user_ids))
        return await real(choice, user_ids)

    monkeypatch.setattr(storage, "member_choices", counted)
    # members at many tables asking at once (a burst): one read for all of them
    answers = await asyncio.gather(*(choices.get("forced_cards", u) for u in (1, 2, 3, 2)))
    assert answers == [True, False, True, False]
    assert reads == [[1, 2, 3]]
    assert await choices.get("forced_cards", 2) is False
    assert len(reads) == 1  # kept

    async def away(choice: MemberChoice, user_ids: Sequence[int]) -> dict[int, bool]:
        raise StorageUnavailable("no answer within 5 s")

    monkeypatch.setattr(storage, "member_choices", away)
    failed = await asyncio.gather(
        choices.get("turn_notices", 1), choices.get("turn_notices", 2), return_exceptions=True
    )
    assert [type(error) for error in failed] == [StorageUnavailable, StorageUnavailable]
    monkeypatch.setattr(storage, "member_choices", counted)
    assert await choices.get("turn_notices", 1) is True  # read again: nothing was kept
    assert reads[-1] == [1]
