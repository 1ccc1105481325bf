"""A TCP proxy between the bot and the real PostgreSQL server that can refuse, cut and stall, so
tests meet a database that goes away the way an operator would see it.

``FaultProxy`` listens on 127.0.0.1 on a free port and forwards every connection to the server.
``refuse()`` stops listening (a new connection is refused), ``cut()`` drops every open
connection, ``stall()`` stops forwarding (bytes and new connections wait) and ``resume()`` puts
everything back as it was. Loopback only; it holds nothing once ``close()`` is awaited.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

CHUNK = 65536


class FaultProxy:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.listen_port = 0
        self._server: asyncio.Server | None = None
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.holding = asyncio.Event()
        """Set once a stalled proxy holds bytes on their way (a query is waiting)."""
        self.connections = 0
        """How many connections the proxy accepted, for tests that count reconnects."""

    async def start(self) -> None:
        self._server = await asyncio.start_server(
            self._accept, "127.0.0.1", self.listen_port, reuse_address=True
        )
        self.listen_port = self._server.sockets[0].getsockname()[1]

    def address(self, dsn: str) -> str:
        """``dsn`` pointed at the proxy instead of the server."""
        parts = urlsplit(dsn)
        user = parts.netloc.rpartition("@")[0]
        netloc = f"{user}@127.0.0.1:{self.listen_port}" if user else f"127.0.0.1:{self.listen_port}"
        return urlunsplit(parts._replace(netloc=netloc))

    # --- faults ---------------------------------------------------------------------------------

    async def refuse(self) -> None:
        """Stops listening: a new connection is refused (open ones go on)."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    def cut(self) -> None:
        """Drops every open connection, both ways, at once."""
        for client, upstream in list(self._links):
            client.transport.abort()
            upstream.transport.abort()
        self._links.clear()

    def stall(self) -> None:
        """Stops forwarding: bytes wait in the proxy, and so does every new connection."""
        self.holding.clear()
        self._flowing.clear()

    async def resume(self) -> None:
        """Forwards again and listens again, on the same port."""
        self._flowing.set()
        if self._server is None:
            await self.start()

    async def close(self) -> None:
        await self.refuse()
        self._flowing.set()
        self.cut()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # --- forwarding ----------------------------------------------------------------------------

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            if not self._flowing.is_set():
                self.holding.set()
                await self._flowing.wait()
            up_reader, up_writer = await asyncio.open_connection(self.host, self.port)
        except OSError:
            writer.transport.abort()
            return
        link = (writer, up_writer)
        self._links.add(link)
        pumps = [
            asyncio.create_task(self._pump(reader, up_writer)),
            asyncio.create_task(self._pump(up_reader, writer)),
        ]
        self._tasks.update(pumps)
        try:
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pump in pumps:
                pump.cancel()
            self._links.discard(link)
            writer.transport.abort()
            up_writer.transport.abort()
            self._tasks.difference_update(pumps)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while True:
                chunk = await source.read(CHUNK)
                if not chunk:
                    return
                if not self._flowing.is_set():
                    self.holding.set()
                    await self._flowing.wait()
                sink.write(chunk)
                await sink.drain()


@contextlib.asynccontextmanager
async def fault_proxy(dsn: str) -> AsyncIterator[tuple[FaultProxy, str]]:
    """A proxy in front of the server ``dsn`` names, and ``dsn`` pointed at it."""
    parts = urlsplit(dsn)
    proxy = FaultProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
    await proxy.start()
    try:
        yield proxy, proxy.address(dsn)
    finally:
        await proxy.close()
