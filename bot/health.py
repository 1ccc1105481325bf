"""Whether the bot is alive, seen from another process: the heartbeat file and ``kortbord health``.

The running bot writes a small JSON file beside the database (or, running as several processes,
one per process in ``KORTBORD_STATE_DIR``) every ``HEARTBEAT_SECONDS``: its
state (waiting out the start-up back-off, connecting, connected, stopping), the time, the
gateway's latency, and what Discord refuses it. ``kortbord health`` (the container's HEALTHCHECK)
is a separate process: it
asks the database file for a read and reads the heartbeat. It is healthy only when the database
answers and a fresh heartbeat says the gateway is connected, and it prints one line either way.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal, get_args

from bot.storage import probe_storage

log = logging.getLogger(__name__)

State = Literal["waiting", "connecting", "connected", "stopping"]
HEARTBEAT_SECONDS = 15.0
STALE_SECONDS = 60.0
"""A heartbeat older than this means the bot is stuck or gone (four beats missed)."""


@dataclass(frozen=True, slots=True)
class Beat:
    state: State
    at: float
    pid: int
    latency_ms: int | None = None
    until: float | None = None
    """While waiting: when the start-up back-off ends."""
    damaged: tuple[str, ...] = ()
    """The live tables a corrupt row keeps from going on (``LiveTable.damage``), one line
    each: they wait for their host or an administrator to end them."""
    unreachable: str = ""
    """Why the last login could not reach Discord (no DNS, refused...), until it connects."""
    refused: tuple[str, ...] = ()
    """What Discord refuses the bot as play goes on (a table's message it may not edit, pictures
    it would not take), one line each: an administrator's permissions to fix, not a restart."""


@dataclass(frozen=True, slots=True)
class Health:
    healthy: bool
    line: str


def heartbeat_path(process_file: Path) -> Path:
    """The heartbeat file of the bot process whose own files are kept beside ``process_file``
    (``Settings.process_file``: the SQLite file itself for one process)."""
    return process_file.with_name(process_file.name + ".alive.json")


def write_beat(path: Path, beat: Beat) -> None:
    """Replaces the heartbeat in one step, so a reader never sees half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(json.dumps(asdict(beat)), encoding="utf-8")
    os.replace(partial, path)


def read_beat(path: Path) -> Beat | None:
    """The last heartbeat; None if there is none. Raises ``ValueError`` if it is unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    if not isinstance(data, dict) or data.get("state") not in get_args(State):
        raise ValueError("not a heartbeat")
    latency, until = data.get("latency_ms"), data.get("until")
    return Beat(
        state=data["state"],
        at=float(data["at"]),
        pid=int(data["pid"]),
        latency_ms=int(latency) if latency is not None else None,
        until=float(until) if until is not None else None,
        damaged=tuple(str(line) for line in data.get("damaged", ())),
        unreachable=str(data.get("unreachable", "")),
        refused=tuple(str(line) for line in data.get("refused", ())),
    )


def clear_beat(path: Path) -> None:
    """Removes the heartbeat (the bot has stopped); a missing one is fine."""
    path.unlink(missing_ok=True)


def judge_beat(path: Path, now: float) -> tuple[bool, str]:
    """Whether the heartbeat at ``path`` shows a live gateway at ``now``, and what it shows."""
    try:
        beat = read_beat(path)
    except (OSError, ValueError, KeyError, TypeError) as error:
        return False, f"heartbeat {path} is unreadable: {error}"
    if beat is None:
        return False, f"no heartbeat at {path}: the bot is not running"
    age = now - beat.at
    if age > STALE_SECONDS:
        return False, f"the last heartbeat is {round(age)} s old: the bot is stuck or has stopped"
    why = f"; Discord was unreachable: {beat.unreachable}" if beat.unreachable else ""
    if beat.state == "waiting":
        left = max(0, round((beat.until or now) - now))
        return False, (
            f"waiting {left} s more before logging in to Discord (start-up back-off{why})"
        )
    if beat.state == "connecting":
        return False, f"connecting to Discord ({why[2:]})" if why else "connecting to Discord"
    if beat.state == "stopping":
        return False, "shutting down"
    latency = f"latency {beat.latency_ms} ms, " if beat.latency_ms is not None else ""
    line = f"gateway connected ({latency}heartbeat {max(0, round(age))} s ago)"
    if beat.damaged:
        # not a reason to restart the bot: it serves every other table; a person must look
        count = len(beat.damaged)
        tables = "table is" if count == 1 else "tables are"
        line += (
            f"; {count} damaged {tables} waiting for the host or an administrator to end"
            f" them (see the log): {'; '.join(beat.damaged)}"
        )
    if beat.refused:
        line += f"; Discord refuses: {'; '.join(beat.refused)}"
    return True, line


async def check_health(
    database: Path | str, now: float, process_file: Path | None = None
) -> Health:
    """The database answers and the gateway is alive: one line that says which, or what is not.

    ``process_file`` is where the process keeps its heartbeat (``Settings.process_file``); by
    default the SQLite file itself."""
    problem = await probe_storage(database)
    anchor = process_file if process_file is not None else Path(database)
    alive, gateway = judge_beat(heartbeat_path(anchor), now)
    if problem is None and alive:
        return Health(True, f"healthy: database answers; {gateway}")
    problems = [p for p in (problem, None if alive else gateway) if p is not None]
    return Health(False, "unhealthy: " + "; ".join(problems))
