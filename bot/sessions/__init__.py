"""The session manager and its parts: the only code that changes a table.

Each table has one lock and one version, bumped on every change. Rendering is not done here: a
:class:`Listener` (a face) is told what changed. A room per job, to be found by name:

- :mod:`.manager`: :class:`SessionManager`, the one door the faces use, and what its parts share;
- :mod:`.table`: :class:`LiveTable`, a table in memory, and its members;
- :mod:`.lobby`: opening, seating, starting, ending and rematches;
- :mod:`.play`: a member's action checked and applied, the log, the match's end;
- :mod:`.deadlines`: turn deadlines, missed turns, idleness;
- :mod:`.reactions`: Hej knekt's reaction windows;
- :mod:`.computers`: computer players' moves;
- :mod:`.restore` and :mod:`.shutdown`: start-up and the graceful stop;
- :mod:`.moves` and :mod:`.rebuild`: pure questions to the game (what a seat may do now) and a
  stored table's match rebuilt from its log.
"""

from bot.sessions.deadlines import MAX_SAVE_RETRY
from bot.sessions.manager import SessionManager
from bot.sessions.moves import (
    DECISION_FACTOR,
    cards_ahead,
    correct_press,
    decided_ms,
    forced_card,
    forced_pass,
    member_actions,
    press_floor,
    press_verbs,
    turn_time,
    window_ms,
)
from bot.sessions.play import STRIKES_FOR_AUTOPLAY
from bot.sessions.rebuild import (
    SEATS_OPTION,
    game_options,
    lobby_damage,
    options_of,
    replay,
    replay_sound,
    seats_wanted,
)
from bot.sessions.table import (
    ENDS_AT,
    LIVE_STATUSES,
    ActedBy,
    Listener,
    LiveTable,
    Member,
    TimedOut,
    require_seat,
    shown_to_all,
)

__all__ = [
    "DECISION_FACTOR",
    "ENDS_AT",
    "LIVE_STATUSES",
    "MAX_SAVE_RETRY",
    "SEATS_OPTION",
    "STRIKES_FOR_AUTOPLAY",
    "ActedBy",
    "Listener",
    "LiveTable",
    "Member",
    "SessionManager",
    "TimedOut",
    "cards_ahead",
    "correct_press",
    "decided_ms",
    "forced_card",
    "forced_pass",
    "game_options",
    "lobby_damage",
    "member_actions",
    "options_of",
    "press_floor",
    "press_verbs",
    "replay",
    "replay_sound",
    "require_seat",
    "seats_wanted",
    "shown_to_all",
    "turn_time",
    "window_ms",
]
