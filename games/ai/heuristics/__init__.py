"""Per-game heuristics for the rule-based player, where they are cheap and clearly stronger.

One module per game, named after the game's id, whose function of the same name is
``(decision, rng) -> Action | None``; ``None`` leaves the choice to the generic rules. They read
only the Decision, like every computer player. A game's heuristic is registered in ``FOR_GAME``.
A game may also register in ``SEARCH_LEAVES`` the actions the search player
(``games.ai.search``) must not play in place of the rule-based choice, where its samples are known
to misjudge them.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.ai.base import Decision
from games.ai.heuristics.bondtolva import bondtolva
from games.ai.heuristics.braus import braus
from games.ai.heuristics.femhundra import femhundra
from games.ai.heuristics.femkort import femkort, femkort_search_leaves
from games.ai.heuristics.hej_knekt import hej_knekt
from games.ai.heuristics.lojliga_familjerna import lojliga_familjerna
from games.ai.heuristics.nittionio import nittionio
from games.ai.heuristics.piquet import piquet
from games.ai.heuristics.reunion import reunion
from games.ai.heuristics.skitgubbe import skitgubbe
from games.ai.heuristics.snipp_snapp_snorum import snipp_snapp_snorum
from games.ai.heuristics.svarte_petter import svarte_petter
from games.ai.heuristics.tvamansbridge import tvamansbridge
from games.core import Action

Heuristic = Callable[[Decision, random.Random], Action | None]

FOR_GAME: dict[str, Heuristic] = {
    "bondtolva": bondtolva,
    "braus": braus,
    "femhundra": femhundra,
    "femkort": femkort,
    "hej_knekt": hej_knekt,
    "lojliga_familjerna": lojliga_familjerna,
    "nittionio": nittionio,
    "piquet": piquet,
    "reunion": reunion,
    "skitgubbe": skitgubbe,
    "snipp_snapp_snorum": snipp_snapp_snorum,
    "svarte_petter": svarte_petter,
    "tvamansbridge": tvamansbridge,
}

SearchLeaves = Callable[[Decision, Action], bool]

SEARCH_LEAVES: dict[str, SearchLeaves] = {
    "femkort": femkort_search_leaves,
}
