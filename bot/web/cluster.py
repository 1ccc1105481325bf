"""The web table on a cluster: a page that reaches any process is served by the one that holds
its table's shard.

Every process announces the address the others reach its web table at in the leases of its
shards (``Storage.announce_web``; ``KORTBORD_WEB_ADDRESS``). When a page says hello, the hub asks
:class:`ClusterRelay` where its table is served (its channel's server, else its table's, else the
member's live table; ``Storage.guild_of``) and, if that is another process, the page's socket is
relayed to that process's own ``/ws``, frame for frame, hello included: the owner checks the
session (signed with a key every process shares, ``bot.web.auth``), the versions and "only your
own seat" as for a page of its own, and pushes the table's changes. So a move is applied once, by
the only process that may change the table, or refused there in words.

When the owner goes (stopped, killed, its shards taken over) its socket closes and so does the
page's, without an error: the page reconnects by itself, and is relayed to whichever process
serves the shard by then. While no process holds a live lease on the shard, or the one that does
has not announced its address yet, the page's socket is closed the same way ("try again later"),
so the page keeps trying and resumes once the takeover is done. Nothing here is a broker: the
database already says who owns what.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable

import aiohttp
from aiohttp import WSCloseCode, WSMsgType, web

from bot.storage import Storage, StorageError
from bot.web.hub import Watcher

log = logging.getLogger(__name__)

CONNECT_SECONDS = 5.0
"""How long the owner may take to accept a relayed page before the page is told to try again."""


class ClusterRelay:
    """Where a page's table is served, and the relay to that process (``WebHub``'s ``owners``)."""

    def __init__(self, storage: Storage, now: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.now = now
        self._client: aiohttp.ClientSession | None = None
        self.relayed = 0
        """Pages relayed to another process so far."""

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    async def where(
        self, user_id: int, channel_id: int | None, table_id: int | None
    ) -> tuple[bool, str | None]:
        """``(here, address)``: whether this process serves the page, else the web address of
        the one that does (None while none does, or it has not announced one)."""
        guild_id = await self.storage.guild_of(
            channel_id=channel_id, table_id=table_id, user_id=user_id
        )
        if guild_id is None:
            return True, None  # no table yet: nothing to show but an empty list, here as well
        server = await self.storage.shard_server(guild_id, self.now())
        if server is None:
            return False, None
        owner, address = server
        return owner == self.storage.owner, address

    async def relay(self, watcher: Watcher, channel_id: int | None, table_id: int | None) -> bool:
        """Serves the page through the process that holds its table's shard, until either side
        closes; False if this process serves it itself."""
        socket = watcher.socket
        try:
            here, address = await self.where(watcher.user.user_id, channel_id, table_id)
        except StorageError as error:
            log.warning("web table: cannot tell where a page's table is served: %s", error)
            here, address = False, None
        if here:
            return False
        if address is None:
            await socket.close(code=WSCloseCode.TRY_AGAIN_LATER)  # the page tries again
            return True
        if self._client is None:
            self._client = aiohttp.ClientSession()
        try:
            owner = await self._client.ws_connect(
                address.rstrip("/") + "/ws",
                timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=CONNECT_SECONDS),
                max_msg_size=0,  # the owner's states are as large as a table makes them
                heartbeat=30.0,
            )
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            log.info("web table: %s does not take a page now: %s", address, error)
            await socket.close(code=WSCloseCode.TRY_AGAIN_LATER)
            return True
        self.relayed += 1
        try:
            await owner.send_str(json.dumps(watcher.hello, ensure_ascii=False))
            await _pipe(socket, owner)
        finally:
            await owner.close()
            if not socket.closed:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await socket.close(code=WSCloseCode.GOING_AWAY)
        return True


async def _pipe(page: web.WebSocketResponse, owner: aiohttp.ClientWebSocketResponse) -> None:
    """Frames both ways until one side closes."""

    async def to_owner() -> None:
        async for message in page:
            if message.type == WSMsgType.TEXT:
                await owner.send_str(message.data)
            elif message.type == WSMsgType.BINARY:
                await owner.send_bytes(message.data)  # refused there in words, as here
            else:
                return

    async def to_page() -> None:
        async for message in owner:
            if message.type != WSMsgType.TEXT:
                return
            await page.send_str(message.data)

    tasks = [asyncio.create_task(to_owner()), asyncio.create_task(to_page())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, ConnectionError, RuntimeError):
                await task
