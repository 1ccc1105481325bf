"""What a member may choose at a table, read from notations, for every face of the table.

Pure: it reads the notations the session manager offers (``member_actions``) and never decides
what is legal (DESIGN.md: the game does). The Discord face arranges these choices into a hand
panel's controls (``bot.discord.views.layout``); the web table sends them as they are, with the
cards each one plays or picks, so that its page can raise playable cards and offer "pick, then
confirm". Both name a choice with the same words (``TextRenderer.action``) and give the same help.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import Catalog
from bot.render.text import hand_key
from games.cards import is_card_code as _is_card_code
from games.cards import parse_card

is_card_code = functools.lru_cache(maxsize=4096)(_is_card_code)
"""``games.cards.is_card_code``, remembered: every choice of every seat is read with it on every
change of a table."""
_LEVEL = re.compile(r"^(\d+)([A-Za-z]+)$")


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action: its notation, its verb (``""`` for a card play) and its arguments."""

    notation: str
    verb: str
    args: tuple[str, ...]

    @property
    def is_card(self) -> bool:
        """One card played (``QS``); several cards with no verb (``QC KC``) are not."""
        return self.verb == "" and len(self.args) == 1


def two_parts(choice: Choice) -> tuple[str, str] | None:
    """``bid 7NT`` -> ``("7", "NT")``, ``ask 2 K`` -> ``("2", "K")``, ``ask 2 9H`` ->
    ``("2", "9H")``; None for other choices."""
    if len(choice.args) == 2 and not is_card_code(choice.args[0]):
        return choice.args[0], choice.args[1]  # ``ask 2 K``, ``ask 2 9H``: whom, then what
    if len(choice.args) == 1:
        found = _LEVEL.match(choice.args[0])
        if found:
            return found[1], found[2]
    return None


def choice_of(notation: str) -> Choice:
    words = notation.split()
    if words and all(is_card_code(w) for w in words):
        return Choice(notation, "", tuple(words))
    return Choice(notation, words[0], tuple(words[1:]))


def one_card_verbs(choices: Sequence[Choice]) -> set[str]:
    """Verbs that name one card (``call AC``): some choice's argument is a card that is not a
    level and strain (``7H`` alone could be either; ``AC`` is only a card)."""
    return {
        c.verb
        for c in choices
        if not c.is_card and len(c.args) == 1 and is_card_code(c.args[0]) and two_parts(c) is None
    }


def choice_cards(choices: Sequence[Choice]) -> dict[str, tuple[str, ...]]:
    """The cards each choice plays or picks, by notation: every card of a play (``QS``,
    ``QC KC``) and the cards a verb names (``bid 7D KS TC``, ``call AC``); none for a contract
    that only looks like a card (``bid 7H`` among ``bid 7NT``: a level and a strain)."""
    one_card = one_card_verbs(choices)
    out: dict[str, tuple[str, ...]] = {}
    for c in choices:
        if c.verb and len(c.args) == 1 and c.verb not in one_card and two_parts(c) is not None:
            out[c.notation] = ()
        else:
            out[c.notation] = tuple(a for a in c.args if is_card_code(a))
    return out


def hand_order(notation: str) -> tuple[int, int, int]:
    """A sort key putting single-card plays in the order the hand is shown (``hand_key``), after
    the other actions (kept in the game's order: the sort is stable)."""
    if " " in notation:  # a verb or several cards: no single card (a bid phase has hundreds)
        return (0, 0, 0)
    try:
        return (1, *hand_key(parse_card(notation)))
    except ValueError:
        return (0, 0, 0)


def in_hand_order(notations: Iterable[str]) -> list[str]:
    """The notations with single-card plays in the hand's order, after the other actions."""
    return sorted(notations, key=hand_order)


def verb_help(catalog: Catalog, game_id: str, verb: str, suits: Mapping[str, str]) -> str | None:
    """The game's help for a verb (``<game>.help.<verb>``), its ``{S}`` suits drawn with
    ``suits`` (by letter); None when the game has none."""
    key = f"{game_id}.help.{verb.lower()}"  # ``JK S``: the joker led as spades
    if not verb or not catalog.has(key):
        return None
    return catalog.text(key, **suits)
