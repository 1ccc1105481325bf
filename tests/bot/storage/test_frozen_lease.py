"""A process frozen in the middle of a write (SIGSTOP, a hung host) cannot keep its shards: the
server ends its idle transaction, and another process takes the shards over once the lease has
run out, refused in words meanwhile rather than calling the database away. The frozen process
is a real subprocess with its own connection pool."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import time

import pytest

from bot.storage import ShardClaimError, Shards, StorageError, open_storage

pytestmark = pytest.mark.postgresql

LEASE = 3.0
TIMEOUT = 1.0
SHARD = Shards(1, (0,))
FROZEN = f"""
import asyncio, sys, time
from bot.storage import Shards, open_storage

async def main() -> None:
    storage = await open_storage(sys.argv[1], timeout={TIMEOUT})
    await storage.claim_shards(Shards(1, (0,)), "frozen", time.time(), {LEASE})
    # A write as every write does it: the lease row held FOR SHARE until the commit, which the
    # process, stopped now, never gets to.
    async with storage._write() as db:
        await storage._require_owner(db, 1)
        print("holding", flush=True)
        await asyncio.sleep(3600)

asyncio.run(main())
"""


async def test_a_process_frozen_mid_write_loses_its_shards_within_the_lease(
    postgres_database: str, caplog: pytest.LogCaptureFixture
) -> None:
    frozen = await asyncio.create_subprocess_exec(
        sys.executable, "-c", FROZEN, postgres_database, stdout=asyncio.subprocess.PIPE
    )
    try:
        assert frozen.stdout is not None
        line = await asyncio.wait_for(frozen.stdout.readline(), 60)
        assert line.strip() == b"holding"
        os.kill(frozen.pid, signal.SIGSTOP)
        claimed_at = time.time()
        async with await open_storage(postgres_database, timeout=TIMEOUT) as successor:
            refusals: list[str] = []
            deadline = time.monotonic() + 60  # generous: the work is the lease running out
            while True:
                try:
                    await successor.claim_shards(SHARD, "successor", time.time(), LEASE)
                    break
                except (ShardClaimError, StorageError) as error:
                    refusals.append(str(error))
                if time.monotonic() > deadline:
                    pytest.fail(f"the frozen process still holds its shard: {refusals[-3:]}")
                await asyncio.sleep(0.2)
            assert successor.shards == SHARD
            assert not successor.away
            # taken over once its lease had run out, not when the frozen process woke up
            took = time.time() - claimed_at
            assert took < 30, took
        assert not [r for r in caplog.records if "does not answer" in r.getMessage()]
        assert all(r.levelno < logging.ERROR for r in caplog.records)
    finally:
        os.kill(frozen.pid, signal.SIGCONT)
        frozen.kill()
        await frozen.wait()
