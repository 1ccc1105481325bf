"""The composition root: the core put together once, and each face able to run without the
others (the web table alone, ``kortbord web``, with no Discord face)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp

from bot.service import run_web
from bot.settings import Settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def test_the_web_table_runs_alone_without_discord_and_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    settings = Settings(  # type: ignore[call-arg]
        database=tmp_path / "kortbord.sqlite3", web_port=port, web_host="127.0.0.1", _env_file=None
    )
    stop = asyncio.Event()
    running = asyncio.create_task(run_web(settings, stop))
    async with aiohttp.ClientSession() as client:
        for _ in range(500):  # waits for the server to listen, however busy the machine is
            try:
                async with client.get(f"http://127.0.0.1:{port}/.proxy/api/config") as answer:
                    assert answer.status == 200
                    break
            except aiohttp.ClientConnectionError:
                assert not running.done(), running.exception()
                await asyncio.sleep(0.05)
        else:
            raise AssertionError("the web table never listened")
    stop.set()
    assert await running == 0
    assert (tmp_path / "kortbord.sqlite3").exists()
