"""A stored table's match rebuilt from its record: its options, its seats, and the replay of its
action log (as far as the log is sound, for a table a corrupt row damaged).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from bot.storage.records import ActionRecord, Damage, TableRecord
from games.core import Game, OptionError, Options, apply_option_text
from games.registry import SPECS

SEATS_OPTION = "_seats"
"""A table setting kept with the game's options: how many seats to fill at the start."""


def game_options(settings: Mapping[str, str]) -> dict[str, str]:
    """The game's own options among a table's settings (table settings start with ``_``)."""
    return {name: value for name, value in settings.items() if not name.startswith("_")}


def options_of(record: TableRecord) -> Options:
    spec = SPECS[record.game_id]
    return apply_option_text(spec.preset(record.variant), game_options(dict(record.options)))


def seats_wanted(record: TableRecord) -> int:
    """How many seats the match starts with: the host's wish, within the game's range."""
    spec = SPECS[record.game_id]
    wish = dict(record.options).get(SEATS_OPTION, "")
    wanted = int(wish) if wish.isdigit() else spec.min_players
    return max(spec.min_players, len(record.seats), min(wanted, spec.max_players))


def replay_sound(
    record: TableRecord, actions: list[ActionRecord]
) -> tuple[Game | None, int, Damage | None]:
    """The match of a stored table as far as its log is sound: the game (None if not even its
    start can be rebuilt: an unknown game, variant or option), how many actions were applied,
    and what stopped the replay, if anything."""
    spec = SPECS.get(record.game_id)
    if spec is None:
        return None, 0, Damage("game", f"unknown game {record.game_id!r}")
    damage = lobby_damage(record)
    if damage is not None:
        return None, 0, damage
    try:
        game = replay(record, [])
    except ValueError as error:
        return None, 0, Damage("seats", str(error))
    for done, entry in enumerate(actions):
        try:
            game.apply(entry.seat, game.parse(entry.notation))
        except (ValueError, KeyError, IndexError) as error:
            detail = (
                f"action {entry.seq} ({entry.notation!r} for seat {entry.seat}) cannot be"
                f" played: {error}"
            )
            # rebuilt from the start: a refused move may have left the match half-changed
            return replay(record, actions[:done]), done, Damage("notation", detail, entry.seq)
    return game, len(actions), None


def lobby_damage(record: TableRecord) -> Damage | None:
    """What keeps a stored lobby from ever starting: an unknown game, variant or option."""
    spec = SPECS.get(record.game_id)
    if spec is None:
        return Damage("game", f"unknown game {record.game_id!r}")
    try:
        options_of(record)
    except OptionError as error:
        known = record.variant == "standard" or record.variant in spec.presets
        return Damage("options" if known else "variant", str(error))
    return None


def replay(record: TableRecord, actions: list[ActionRecord]) -> Game:
    """The match of a stored table, rebuilt from its seed and its action log."""
    game = SPECS[record.game_id].new(
        len(record.seats), options_of(record), rng=random.Random(record.seed)
    )
    for a in actions:
        game.apply(a.seat, game.parse(a.notation))
    return game
