"""Every registered game by id. A new game is one module with a ``SPEC`` and one line here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.core import GameSpec, Options

_MODULES: tuple[str, ...] = (
    "nittionio",
    "tvamanswhist",
    "svarte_petter",
    "hej_knekt",
    "lojliga_familjerna",
    "snipp_snapp_snorum",
    "bondtolva",
    "braus",
    "reunion",
    "femkort",
    "skitgubbe",
    "piquet",
    "femhundra",
    "tvamansbridge",
)


def _load() -> dict[str, GameSpec[Options]]:
    import importlib

    specs: dict[str, GameSpec[Options]] = {}
    for name in _MODULES:
        spec = importlib.import_module(f"games.{name}").SPEC
        assert spec.id == name, f"games.{name} registers {spec.id!r}"
        specs[spec.id] = spec
    return specs


SPECS: Mapping[str, GameSpec[Options]] = _load()


def get(game_id: str) -> GameSpec[Options]:
    """The spec of ``game_id``; KeyError with the known ids otherwise."""
    try:
        return SPECS[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r} (games: {', '.join(SPECS)})") from None
