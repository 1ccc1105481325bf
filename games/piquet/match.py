"""One partie of Piquet for 2, 3 or 4 players: the deal, the exchanges, the declarations, the
play and the score (rules/two-player.md §3; the rules are summed up in the package docstring).

Hands are bit masks of card ints; scores of a deal are a ledger of items tallied in precedence
order (``scoring``). Pure: standard library only, no I/O, no clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from games.cards import (
    RANKS,
    Card,
    cards_in,
    codes,
    deal_deck,
    make_deck,
    mask_cards,
    randbelow,
    rank_of,
    shuffled,
    suit_of,
)
from games.core import (
    Action,
    ArgValue,
    EventLog,
    Game,
    IllegalActionError,
    Msg,
    Options,
    Pile,
    Result,
    ScoreSheet,
    Seat,
    SeatView,
    SheetRow,
    View,
    competition_places,
)
from games.piquet import actions, combos, scoring
from games.piquet.actions import BLANCHE, EXPOSE, HIDE
from games.piquet.scoring import (
    CAPOT,
    CARDS,
    KIND_NAMES,
    LAST,
    MORE_HANDED,
    PLAY,
    TWO_HANDED,
)
from games.tricks import follow_mask, trick_winner

GAME_ID = "piquet"
DECK = tuple(make_deck(range(7, 15)))
HAND_SIZE = {2: 12, 3: 10, 4: 8}
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
EXCHANGE_PHASE, LEFTOVER_PHASE, PLAY_PHASE, OVER = range(4)
REDEALS = 100  # determinize: draws to find hands that make the published calls
CLASS_KINDS = (scoring.POINT, scoring.SEQUENCES, scoring.SETS)  # by combos.POINT..SETS


Flag = Literal["profile", "on", "off"]


@dataclass(frozen=True)
class PiquetOptions(Options):
    """``profile``: ``seed`` (the Swedish text, flags S1-S5 on; RULINGS 1) or ``classic``
    (Cavendish/Parlett: every flag off); each flag may also be set on its own.
    ``four_player_deals``: a four-player partie is 4 or 8 deals (§3.10.2); two and three
    players always play 6."""

    profile: Literal["seed", "classic"] = "seed"
    four_player_deals: Literal[4, 8] = 4
    # Each flag of §3.9 on its own: "profile" follows ``profile``; "on"/"off" override it.
    point_flat_1: Flag = "profile"  # S1: the point scores 1, not 1 per card
    seed_exchange: Flag = "profile"  # S2: elder 3-5, younger 2-3 from his own three
    ten_plus: Flag = "profile"  # S3: leads and wins score only with a card above nine
    capot_no_last: Flag = "profile"  # S4: no last-trick point on capot
    equality_blocks: Flag = "profile"  # S5: an equal class blocks repique and pique

    def flag(self, name: str) -> bool:
        """Whether the flag ``name`` (S1-S5) is on in these options."""
        value = getattr(self, name)
        return self.profile == "seed" if value == "profile" else value == "on"


class Piquet(Game):
    """A partie in progress. Seats 0..n-1 clockwise; with four players 0 & 2 play against 1 & 3."""

    game_id = GAME_ID
    copied = (
        "events",
        "totals",
        "past_rows",
        "hands",
        "dealt_hands",
        "talon",
        "discards",
        "seen",
        "shown",
        "trick",
        "won",
        "played",
        "declared_hands",
        "best_called",
        "tally",
    )
    copied_nested = ("calls",)

    def __init__(
        self,
        players: int,
        options: PiquetOptions,
        rng: random.Random,
        decks: list[list[int]] | None,
    ) -> None:
        self.n = players
        self.options = options
        self.flat_point = options.flag("point_flat_1")  # S1
        self.seed_exchange = options.flag("seed_exchange")  # S2
        self.ten_plus = options.flag("ten_plus")  # S3
        self.capot_no_last = options.flag("capot_no_last")  # S4
        self.equality_blocks = options.flag("equality_blocks")  # S5
        self.rng = rng
        self.decks = decks
        self.parties = 2 if players == 4 else players
        self.tricks_per_deal = HAND_SIZE[players]
        self.partie: int = options.four_player_deals if players == 4 else 6  # D-PQ-13
        self.bonuses = TWO_HANDED if players == 2 else MORE_HANDED
        self.events = EventLog(keep=16)
        self.totals = [0] * self.parties
        self.past_rows: list[SheetRow] = []
        self.dealt = 0
        self.dealer = randbelow(rng, players)  # D-PQ-10
        self.winner_places: tuple[int, ...] = ()
        self._start_deal()

    # --- seats and sides -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.n

    def party(self, seat: Seat) -> int:
        return seat % 2 if self.n == 4 else seat

    def _elder(self) -> Seat:
        return (self.dealer + 1) % self.n

    def _from_elder(self, seat: Seat) -> int:
        return (seat - self._elder()) % self.n

    # --- the deal --------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        n = self.n
        deck = deal_deck(self.decks, self.dealt, DECK, self.rng)
        self.dealt += 1
        size = HAND_SIZE[n]
        elder = self._elder()
        self.hands = [0] * n
        for i in range(n * size):  # two at a time, clockwise from elder (§3.1)
            seat = (elder + (i // 2) % n) % n
            self.hands[seat] |= 1 << deck[i]
        self.dealt_hands = list(self.hands)
        self.talon = deck[n * size :]  # top first: elder's five, then younger's three (2p)
        self.discards = [0] * n
        self.aside = 0  # talon cards out of play
        self.aside_public = False
        self.expose_pending = False
        self.seen = [0] * n  # cards each seat has seen outside its hand and discards
        self.shown = [0] * n  # cards of each hand that everyone has seen
        self.calls: list[list[Msg]] = [[] for _ in range(n)]
        self.decided = 0  # seats that made their first decision of the deal (D-PQ-18)
        self.claimed = 0
        self.tally = scoring.Tally(self.parties, self.bonuses)
        self.trick: list[int] = []
        self.trick_no = 1
        self.leader = elder
        self.won = [0] * n
        self.played = [0] * n  # cards each seat has played in this deal
        self.declared_hands = list(self.hands)
        self.best_called: list[combos.Value | None] = [None, None, None]
        self.events.add(Msg.of("table.event.deal_started", deal=self.dealt, seat=self.dealer))
        if n == 4:
            self._start_play()
        else:
            self.phase = EXCHANGE_PHASE
            self.exchanger = elder if n == 2 else self.dealer

    def _exchange_range(self, seat: Seat) -> tuple[int, int]:
        if self.n == 3:
            return 0, 2  # D-PQ-11: the dealer may exchange 0, 1 or 2
        if seat == self._elder():
            return (3, 5) if self.seed_exchange else (1, 5)
        return (2, 3) if self.seed_exchange else (0, len(self.talon))

    def _may_claim(self, seat: Seat) -> bool:
        """D-PQ-18: carte blanche at the seat's first decision, with a dealt hand without K Q J."""
        bit = 1 << seat
        return not (self.decided | self.claimed) & bit and combos.is_blank(self.dealt_hands[seat])

    # --- the contract ----------------------------------------------------------------------------

    def _turn(self) -> Seat:
        if self.phase == OVER:
            return -1
        if self.phase == EXCHANGE_PHASE:
            return self.exchanger
        if self.phase == LEFTOVER_PHASE:
            return self.dealer
        return (self.leader + len(self.trick)) % self.n

    def to_act(self) -> frozenset[Seat]:
        turn = self._turn()
        return frozenset() if turn < 0 else frozenset((turn,))

    def _playable(self, seat: Seat) -> int:
        hand = self.hands[seat]
        if not self.trick:
            return hand
        return follow_mask(hand, suit_of(self.trick[0]))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat != self._turn():
            return []
        out: list[Action] = [BLANCHE] if self._may_claim(seat) else []
        if self.phase == EXCHANGE_PHASE:
            fewest, most = self._exchange_range(seat)
            out.extend(actions.exchange_actions(self.hands[seat], fewest, most))
        elif self.phase == LEFTOVER_PHASE:
            return [EXPOSE, HIDE]
        else:
            out.extend(cards_in(self._playable(seat)))
        return out

    def apply(self, seat: Seat, action: Action) -> None:
        if self.phase == OVER:
            raise IllegalActionError("the match is over")
        if seat != self._turn():
            raise IllegalActionError("it is not your turn")
        if action == BLANCHE:
            if not self._may_claim(seat):
                raise IllegalActionError(
                    "carte blanche is a dealt hand without kings, queens and jacks, claimed at "
                    "your first decision of the deal"
                )
            self._claim(seat)
        elif self.phase == EXCHANGE_PHASE:
            self._exchange(seat, action)
        elif self.phase == LEFTOVER_PHASE:
            if action not in (EXPOSE, HIDE):
                raise IllegalActionError("choose expose or hide for the talon cards left over")
            self._leftover(action == EXPOSE)
        else:
            self._play(seat, action)

    # --- carte blanche and the exchanges ---------------------------------------------------------

    def _claim(self, seat: Seat) -> None:
        self.claimed |= 1 << seat
        self.shown[seat] |= self.dealt_hands[seat]
        self.events.add(
            Msg.of("piquet.event.blanche", seat=seat, cards=self._codes(self.hands[seat]))
        )
        self._score(scoring.BLANCHE, self._from_elder(seat), self.party(seat), 10)

    def _exchange(self, seat: Seat, action: Action) -> None:
        mask = actions.exchange_mask(action)
        if mask is None:
            raise IllegalActionError("exchange first: choose the cards to lay away")
        if mask & ~self.hands[seat]:
            raise IllegalActionError("you can only lay away cards of your hand")
        fewest, most = self._exchange_range(seat)
        count = mask.bit_count()
        if not fewest <= count <= most:
            span = f"{fewest}" if fewest == most else f"{fewest} to {most}"
            raise IllegalActionError(f"exchange {span} cards, not {count}")
        self.decided |= 1 << seat
        self.shown[seat] = 0  # the blanche hand is shown before the exchange, not after
        taken = self.talon[:count]
        self.talon = self.talon[count:]
        self.hands[seat] = self.hands[seat] & ~mask | _mask(taken)
        self.discards[seat] |= mask
        self.events.add(Msg.of("piquet.event.exchanged", seat=seat, count=count))
        elder = self._elder()
        if self.n == 2 and seat == elder:
            portion = self.talon[: 5 - count]  # the rest of elder's five
            self.seen[seat] |= _mask(portion)
            if self.seed_exchange:  # S2: set aside, seen by elder only
                self.aside |= _mask(portion)
                self.talon = self.talon[5 - count :]
            self.exchanger = self.dealer
            return
        if self.n == 2 and not self.seed_exchange and self.talon:
            self.phase = LEFTOVER_PHASE
            return
        self.aside |= _mask(self.talon)  # untaken cards: out of play, unseen
        self.talon = []
        self._start_play()

    def _leftover(self, expose: bool) -> None:
        younger = self.dealer
        rest = _mask(self.talon)
        self.talon = []
        self.aside |= rest
        if expose:  # younger sees them now, elder once he has led to trick 1 (§3.2)
            self.seen[younger] |= rest
            self.expose_pending = True
        self.events.add(
            Msg.of("piquet.event.leftover_" + ("exposed" if expose else "hidden"), seat=younger)
        )
        self._start_play()

    # --- declarations ----------------------------------------------------------------------------

    def _start_play(self) -> None:
        self.phase = PLAY_PHASE
        self.declared_hands = list(self.hands)
        if self.n == 4:
            self._publish_better(self._elder())  # D-PQ-19: elder declares, then leads
        else:
            # every class's calls first, then their outcomes: the outcomes are the last lines of
            # the log when play starts, the calls stay beside the seats
            outcomes = [(kind, self._dialogue(kind)) for kind in combos.CLASSES]
            for kind, tied in outcomes:
                self._settle_dialogue(kind, tied)

    def _value(self, seat: Seat, kind: int) -> combos.Value | None:
        return combos.best(self.declared_hands[seat], kind)

    def _call(self, seat: Seat, msg: Msg) -> None:
        """A call in the log, and beside the seat for the rest of the deal (without its name)."""
        self.events.add(msg)
        self.calls[seat].append(_said(msg))

    def _calls_from(self, declared: list[int]) -> list[list[Msg]]:
        """The calls published so far, had the players declared these hands (for
        ``determinize``: a re-deal must keep every published call)."""
        out: list[list[Msg]] = [[] for _ in range(self.n)]
        if self.phase != PLAY_PHASE:
            return out
        order = [(self._elder() + i) % self.n for i in range(self.n)]
        if self.n < 4:
            for kind in combos.CLASSES:
                values = [combos.best(declared[s], kind) for s in range(self.n)]
                for seat, msg in dialogue(kind, values, order)[0]:
                    out[seat].append(_said(msg))
            return out
        best_called: list[combos.Value | None] = [None, None, None]
        for seat in order:
            if seat != order[0] and not (self.decided >> seat & 1):
                continue
            for kind in combos.CLASSES:
                v, best_v = combos.best(declared[seat], kind), best_called[kind]
                if v is not None and (best_v is None or v > best_v):
                    best_called[kind] = v
                    out[seat].append(_said(_full_call(kind, seat, v)))
        return out

    def _dialogue(self, kind: int) -> list[Seat]:
        """§3.4 for two or three hands (see :func:`dialogue`): the calls; the seats tied best."""
        order = [(self._elder() + i) % self.n for i in range(self.n)]
        values = [self._value(s, kind) for s in range(self.n)]
        said, tied = dialogue(kind, values, order)
        for seat, msg in said:
            self._call(seat, msg)
        return tied

    def _settle_dialogue(self, kind: int, tied: list[Seat]) -> None:
        """The outcome of a class's dialogue: the single best holder scores."""
        if not tied:
            return
        if len(tied) > 1:  # equal best: nobody scores (D-PQ-16), and S5 blocks the bonuses
            if self.equality_blocks:
                self.tally.block()
            self.events.add(Msg.of(f"piquet.event.{combos.CLASS_NAMES[kind]}_equal"))
            return
        self._win_class(kind, [tied[0]])

    def _win_class(self, kind: int, seats: list[Seat]) -> None:
        """The winner (with four players: the best holder and his partner) scores and shows."""
        for seat in seats:
            hand = self.declared_hands[seat]
            if combos.best(hand, kind) is None:
                continue
            pts = combos.points(hand, kind, self.flat_point)
            cards = combos.shown(hand, kind)
            self.shown[seat] |= cards & self.hands[seat]
            self.events.add(self._scored(kind, seat, pts, cards))
            self._score(CLASS_KINDS[kind], self._from_elder(seat), self.party(seat), pts)

    def _scored(self, kind: int, seat: Seat, pts: int, cards: int) -> Msg:
        """A class won and shown; a set by its best: "fyrtal i ess" (§3.4 step 4)."""
        args: dict[str, ArgValue] = {"seat": seat, "points": pts, "cards": self._codes(cards)}
        name = combos.CLASS_NAMES[kind]
        best = combos.best(self.declared_hands[seat], kind)
        if kind == combos.SETS and best is not None:
            name = "quatorze" if best[0] == 4 else "trio"
            args["rank"] = RANKS[best[1] - 2]
        return Msg.of(f"piquet.event.{name}_scored", **args)

    def _publish_better(self, seat: Seat) -> None:
        """Four players (D-PQ-19): a player announces, as he plays his first card, each class in
        which he holds better than the best announced so far (elder: all he holds)."""
        for kind in combos.CLASSES:
            v = self._value(seat, kind)
            best_v = self.best_called[kind]
            if v is not None and (best_v is None or v > best_v):
                self.best_called[kind] = v
                self._call(seat, _full_call(kind, seat, v))

    def _settle_classes(self) -> None:
        """Four players, after trick 1: the best holding of each class scores for its side, with
        the partner's combinations of the same class (D-PQ-17); equal best across sides: none."""
        for kind in combos.CLASSES:
            values = [self._value(s, kind) for s in range(4)]
            held = [v for v in values if v is not None]
            if not held:
                continue
            top = max(held)
            sides = {s % 2 for s in range(4) if values[s] == top}
            if len(sides) > 1:
                if self.equality_blocks:
                    self.tally.block()
                self.events.add(Msg.of(f"piquet.event.{combos.CLASS_NAMES[kind]}_equal"))
                continue
            side = sides.pop()
            self._win_class(kind, [side, side + 2])

    # --- play ------------------------------------------------------------------------------------

    def _play(self, seat: Seat, action: Action) -> None:
        if not 0 <= action < 52 or not self.hands[seat] >> action & 1:
            if actions.exchange_mask(action) is not None or action in (EXPOSE, HIDE):
                raise IllegalActionError("play a card now")
            raise IllegalActionError(f"you do not hold {self.notation_or_raw(action)}")
        if not self._playable(seat) >> action & 1:
            led = SUIT_NAMES[suit_of(self.trick[0])]
            raise IllegalActionError(f"you must follow suit: play one of your {led}")
        if self.n == 4 and self.trick_no == 1 and seat != self._elder():
            self._publish_better(seat)
        self.decided |= 1 << seat
        bit = 1 << action
        self.played[seat] |= bit
        self.hands[seat] &= ~bit
        self.shown[seat] &= ~bit
        self.trick.append(action)
        if len(self.trick) == 1:  # the lead scores as it is played (S3: a card above nine)
            lead_scorer, _ = scoring.trick_points(self.n, seat, seat, action, action, self.ten_plus)
            if lead_scorer >= 0:
                self.events.add(Msg.of("piquet.event.lead_point", seat=seat))
                self._score(PLAY, 2 * self.trick_no, self.party(seat), 1)
        if self.expose_pending and seat == self._elder():
            self.expose_pending = False
            self.aside_public = True
            self.events.add(Msg.of("piquet.event.leftover_cards", cards=self._codes(self.aside)))
        if len(self.trick) == self.n:
            self._finish_trick()

    def _finish_trick(self) -> None:
        n = self.n
        pos = trick_winner(self.trick, None)
        leader = self.leader
        winner = (leader + pos) % n
        lead, top = self.trick[0], self.trick[pos]
        t = self.trick_no
        self.won[winner] += 1
        self.events.add(Msg.of("table.event.trick_won", seat=winner, card=_code(top)))
        if n == 4 and t == 1:
            self._settle_classes()
        _, win_scorer = scoring.trick_points(n, leader, winner, lead, top, self.ten_plus)
        if win_scorer >= 0:
            self.events.add(Msg.of("piquet.event.trick_point", seat=win_scorer))
            self._score(PLAY, 2 * t + 1, self.party(win_scorer), 1)
        self.trick = []
        self.trick_no += 1
        self.leader = winner
        if self.trick_no > self.tricks_per_deal:
            self._end_deal(winner)

    # --- scoring ---------------------------------------------------------------------------------

    def _score(self, kind: int, order: int, party: int, pts: int) -> None:
        before = self.tally.given
        self.tally.add((kind, order, party, pts))
        if before is not None and self.tally.given != before:
            # an item that scores earlier in the precedence (a carte blanche shown at the first
            # card) came after the bonus was announced: the bonus falls, and the table is told
            lost_kind, lost = before
            name = "repique" if lost_kind == scoring.REPIQUE else "pique"
            self.events.add(self._party_msg(f"piquet.event.{name}_withdrawn", lost))
        if self.tally.given is not None and self.tally.given != before:
            bonus_kind, who = self.tally.given
            name = "repique" if bonus_kind == scoring.REPIQUE else "pique"
            self.events.add(
                self._party_msg(f"piquet.event.{name}", who, points=self.rows[bonus_kind][who])
            )

    def _party_msg(self, key: str, party: int, **args: int | str) -> Msg:
        if self.n == 4:
            return Msg.of(key + "_side", seat=party, partner_seat=party + 2, **args)
        return Msg.of(key, seat=party, **args)

    @property
    def rows(self) -> list[list[int]]:
        """This deal's points so far by kind (``scoring.KIND_NAMES``) and party."""
        return self.tally.rows

    @property
    def blocked(self) -> bool:
        return self.tally.blocked

    def deal_scores(self) -> list[int]:
        """Each party's points so far in this deal."""
        return [sum(row[p] for row in self.rows) for p in range(self.parties)]

    def _end_deal(self, last_winner: Seat) -> None:
        won = [0] * self.parties
        for seat in range(self.n):
            won[self.party(seat)] += self.won[seat]
        total = self.tricks_per_deal
        end = 2 * total + 2
        capot = max(won) == total
        if not (capot and self.capot_no_last):  # S4: no last-trick point on capot
            self.events.add(Msg.of("piquet.event.last_trick", seat=last_winner))
            self._score(LAST, end, self.party(last_winner), 1)
        best = max(won)
        holders = [p for p in range(self.parties) if won[p] == best]
        if capot:
            self.events.add(self._party_msg("piquet.event.capot", holders[0]))
            self._score(CAPOT, end, holders[0], 40)
        elif self.n == 3 and len(holders) == 2:  # §3.10.1: two tied for most tricks get 5 each
            for p in holders:
                self.events.add(Msg.of("piquet.event.cards_shared", seat=p, tricks=best))
                self._score(CARDS, end, p, 5)
        elif len(holders) == 1:
            self.events.add(self._party_msg("piquet.event.cards", holders[0], tricks=best))
            self._score(CARDS, end, holders[0], 10)
        scores = self.deal_scores()
        self.past_rows.extend(self._deal_rows(scores))
        for p in range(self.parties):
            self.totals[p] += scores[p]
        for p in range(self.parties):
            self.events.add(
                self._party_msg(
                    "piquet.event.deal_scored", p, points=scores[p], total=self.totals[p]
                )
            )
        self.tally = scoring.Tally(self.parties, self.bonuses)
        if self._partie_over():
            self._end_partie()
        else:
            self.dealer = (self.dealer + 1) % self.n
            self._start_deal()

    def _partie_over(self) -> bool:
        if self.dealt < self.partie:
            return False
        if self.n == 2 and self.totals[0] == self.totals[1] and self.partie == 6:
            self.partie += 2  # §3.8: equal after six deals, each deals once more
            self.events.add(Msg.of("piquet.event.extra_deals"))
            return False
        return True

    def _end_partie(self) -> None:
        self.phase = OVER
        self.trick = []
        places = competition_places([-t for t in self.totals])
        self.winner_places = tuple(places[self.party(s)] for s in range(self.n))
        firsts = [p for p in range(self.parties) if places[p] == 1]
        if len(firsts) > 1 and self.n != 3:
            self.events.add(Msg.of("piquet.event.drawn"))
        else:
            for p in firsts:
                self.events.add(
                    self._party_msg("piquet.event.partie_won", p, points=self.totals[p])
                )
        if self.n == 2 and len(firsts) == 1:
            w = firsts[0]
            margin = scoring.rubicon_margin(self.totals[w], self.totals[1 - w])
            self.events.add(Msg.of("piquet.event.margin", seat=w, margin=margin))
        if self.n == 3:
            payments, net = scoring.settlement(self.totals)
            for payer, payee, amount in payments:
                self.events.add(
                    Msg.of("piquet.event.pays", seat=payer, to_seat=payee, points=amount)
                )
            self.past_rows.append(SheetRow(Msg.of("piquet.sheet.settlement"), tuple(net)))

    # --- reading the match -----------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def deal_number(self) -> int:
        return self.dealt

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def result(self) -> Result:
        if self.phase != OVER:
            raise ValueError("the match is not over")
        return Result(tuple(self.totals[self.party(s)] for s in range(self.n)), self.winner_places)

    def _deal_rows(self, scores: list[int]) -> list[SheetRow]:
        rows = [
            SheetRow(Msg.of(self._row_key(k)), tuple(v or None for v in self.rows[k]))
            for k in range(len(KIND_NAMES))
            if any(self.rows[k])
        ]
        rows.append(SheetRow(Msg.of("piquet.sheet.deal", deal=self.dealt), tuple(scores), True))
        return rows

    def _row_key(self, kind: int) -> str:
        """A row's label: the repique and pique rows name the opponents there are (RULINGS 7:
        "före motspelarna" with three players, "före motsidan" with four)."""
        key = f"piquet.sheet.{KIND_NAMES[kind]}"
        if kind in (scoring.REPIQUE, scoring.PIQUE) and self.n > 2:
            return key + ("_side" if self.n == 4 else "_others")
        return key

    def sheet(self) -> ScoreSheet:
        """The protokoll: each deal item by item, its total under a line, then the partie total."""
        if self.n == 4:
            columns = tuple(Msg.of("piquet.sheet.side", seat=p, partner_seat=p + 2) for p in (0, 1))
        else:
            columns = tuple(Msg.of("piquet.sheet.seat", seat=s) for s in range(self.n))
        rows = list(self.past_rows)
        running = [0] * self.parties
        if self.phase != OVER:
            running = self.deal_scores()
            if self.tally.items:
                rows.extend(self._deal_rows(running))
        live = tuple(self.totals[p] + running[p] for p in range(self.parties))
        rows.append(SheetRow(Msg.of("piquet.sheet.total"), live))
        return ScoreSheet(columns, tuple(rows))

    def _phase_msg(self) -> Msg:
        if self.phase == OVER:
            return Msg.of("table.phase.over")
        if self.phase == EXCHANGE_PHASE:
            return Msg.of("piquet.phase.exchange", seat=self.exchanger)
        if self.phase == LEFTOVER_PHASE:
            return Msg.of("piquet.phase.leftover", seat=self.dealer)
        return Msg.of("piquet.phase.play", trick=self.trick_no, tricks=self.tricks_per_deal)

    def _piles(self) -> tuple[Pile, ...]:
        piles: list[Pile] = []
        if self.talon:
            piles.append(Pile("piquet.pile.talon", hidden=len(self.talon)))
        if self.aside:
            if self.aside_public:
                piles.append(Pile("piquet.pile.aside", mask_cards(self.aside)))
            else:
                piles.append(Pile("piquet.pile.aside", hidden=self.aside.bit_count()))
        for s in range(self.n):
            if self.discards[s]:
                piles.append(
                    Pile("piquet.pile.discards", hidden=self.discards[s].bit_count(), seat=s)
                )
        for s in range(self.n):
            if self.won[s]:
                piles.append(Pile("table.pile.won_tricks", hidden=self.n * self.won[s], seat=s))
        return tuple(piles)

    def view(self, seat: Seat | None) -> View:
        live = self.deal_scores() if self.phase != OVER else [0] * self.parties
        seats = tuple(
            SeatView(
                cards=self.hands[s].bit_count(),
                score=self.totals[self.party(s)] + live[self.party(s)],
                tricks=self.won[s],
                shown=mask_cards(self.shown[s] & self.hands[s]),
                notes=tuple(self.calls[s]),
            )
            for s in range(self.n)
        )
        notes: list[Msg] = []
        if seat is not None:
            if self.discards[seat]:
                notes.append(Msg.of("piquet.note.discards", cards=self._codes(self.discards[seat])))
            aside_seen = self.aside & self.seen[seat]
            if aside_seen and not self.aside_public:
                notes.append(Msg.of("piquet.note.aside", cards=self._codes(aside_seen)))
            # §3.2 (classic): the talon cards elder leaves are shown to him alone; he keeps
            # knowing them once younger has taken them
            looked_at = self.seen[seat] & ~self.aside & ~self.hands[seat]
            if looked_at:
                notes.append(Msg.of("piquet.note.talon_seen", cards=self._codes(looked_at)))
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase_msg(),
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=seats,
            trick=tuple(((self.leader + i) % self.n, Card(c)) for i, c in enumerate(self.trick)),
            piles=self._piles(),
            events=self.events.for_viewer(seat),
            notes=tuple(notes),
            deal=self.dealt,
            dealer=self.dealer,
            teams=((0, 2), (1, 3)) if self.n == 4 else (),
            sheet=self.sheet(),
        )

    @staticmethod
    def _codes(mask: int) -> str:
        return codes(sorted(cards_in(mask), key=lambda c: (suit_of(c), -rank_of(c))))

    # --- copies ----------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> Piquet:
        """Re-deal every card hidden from ``seat`` among the places it could be: the other hands
        (keeping their shown cards), the other discards, the talon and the cards set aside.
        Cards the seat has seen (its own discards, talon cards it was shown) stay where they are,
        and the re-dealt hands must make the same published calls (lengths, pips, top cards,
        ranks): otherwise the cards are drawn again, up to ``REDEALS`` times. Future deals come
        from ``rng``."""
        known = self.hands[seat] | self.discards[seat] | self.seen[seat]
        known |= sum(self.shown) | (self.aside if self.aside_public else 0)
        places: list[tuple[int, int]] = []  # (where, index): 0 hand, 1 discards, 2 aside, 3 talon
        pool: list[int] = []
        for s in range(self.n):
            if s != seat:
                for c in cards_in(self.hands[s] & ~known):
                    places.append((0, s))
                    pool.append(c)
                for c in cards_in(self.discards[s] & ~known):
                    places.append((1, s))
                    pool.append(c)
        for c in cards_in(self.aside & ~known):
            places.append((2, 0))
            pool.append(c)
        for i, c in enumerate(self.talon):
            if not known >> c & 1:
                places.append((3, i))
                pool.append(c)
        other = self.clone(rng)
        other.decks = None
        fixed = [self.hands[s] & ~_mask(pool) for s in range(self.n)]
        fixed_discards = [self.discards[s] & ~_mask(pool) for s in range(self.n)]
        fixed_aside = self.aside & ~_mask(pool)
        for _ in range(REDEALS):
            hands, discards, aside = list(fixed), list(fixed_discards), fixed_aside
            talon = list(self.talon)
            for (where, idx), c in zip(places, shuffled(pool, rng), strict=True):
                if where == 0:
                    hands[idx] |= 1 << c
                elif where == 1:
                    discards[idx] |= 1 << c
                elif where == 2:
                    aside |= 1 << c
                else:
                    talon[idx] = c
            declared = [hands[s] | self.played[s] for s in range(self.n)]
            other.hands, other.discards, other.aside, other.talon = hands, discards, aside, talon
            if self.phase != PLAY_PHASE:
                break
            other.declared_hands = declared
            if other._calls_from(declared) == self.calls:
                break
        return other

    # --- notation --------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        return actions.notation(action)

    def parse(self, text: str) -> Action:
        return actions.parse(text)


def dialogue(
    kind: int, values: list[combos.Value | None], order: list[Seat]
) -> tuple[list[tuple[Seat, Msg]], list[Seat]]:
    """§3.4 over two or three hands: the calls in order, and the seats tied for the best (one
    seat: it wins the class; none: nobody holds one).

    The elder calls the size of his best combination (or none); each later player answers
    "räcker" (smaller), "lika" (the same size) or calls his bigger size. After "lika" the first
    holder of the size calls the tie-break (pips, top card, rank) and the others answer "räcker
    inte", "lika" or "räcker".
    """
    said: list[tuple[Seat, Msg]] = []
    group: list[Seat] = []
    for seat in order:
        v = values[seat]
        if not group:
            if v is None:
                said.append((seat, Msg.of(f"piquet.call.no_{combos.CLASS_NAMES[kind]}", seat=seat)))
            else:
                said.append((seat, _size_call(kind, seat, v)))
                group = [seat]
            continue
        top = values[group[0]]
        assert top is not None
        if v is None or v[0] < top[0]:
            said.append((seat, Msg.of("piquet.call.good", seat=seat, caller_seat=group[0])))
        elif v[0] == top[0]:
            said.append((seat, Msg.of("piquet.call.equal", seat=seat)))
            group.append(seat)
        else:
            said.append((seat, _size_call(kind, seat, v)))
            group = [seat]
    if len(group) <= 1:
        return said, group
    first = values[group[0]]
    assert first is not None
    said.append((group[0], _break_call(kind, group[0], first)))
    tied = group[:1]
    for seat in group[1:]:
        v, best_v = values[seat], values[tied[0]]
        assert v is not None
        assert best_v is not None
        if v[1] > best_v[1]:
            said.append((seat, Msg.of("piquet.call.not_good", seat=seat, caller_seat=tied[0])))
            tied = [seat]
        elif v[1] == best_v[1]:
            said.append((seat, Msg.of("piquet.call.equal", seat=seat)))
            tied.append(seat)
        else:
            said.append((seat, Msg.of("piquet.call.good", seat=seat, caller_seat=tied[0])))
    return said, tied


def _said(msg: Msg) -> Msg:
    """A call as noted beside the seat that made it: the same words without its name."""
    args = tuple((k, v) for k, v in msg.args if k != "seat")
    return Msg(msg.key.replace("piquet.call.", "piquet.said."), args)


# --- calls --------------------------------------------------------------------------------------


def _size_call(kind: int, seat: Seat, v: combos.Value) -> Msg:
    """The first call of a class: the point's number of cards, the sequence's length, or
    "quatorze"/"trio"."""
    if kind == combos.POINT:
        return Msg.of("piquet.call.point", seat=seat, count=v[0])
    if kind == combos.SEQUENCE:
        return Msg.of("piquet.call.sequence", seat=seat, length=v[0])
    return Msg.of("piquet.call." + ("quatorze" if v[0] == 4 else "trio"), seat=seat)


def _break_call(kind: int, seat: Seat, v: combos.Value) -> Msg:
    """The tie-break after "lika": the pip total, the top card, the rank of the set."""
    if kind == combos.POINT:
        return Msg.of("piquet.call.pips", seat=seat, pips=v[1])
    if kind == combos.SEQUENCE:
        return Msg.of(f"piquet.call.top_{RANKS[v[1] - 2]}", seat=seat)
    name = "quatorze" if v[0] == 4 else "trio"
    return Msg.of(f"piquet.call.{name}_of", seat=seat, rank=RANKS[v[1] - 2])


def _full_call(kind: int, seat: Seat, v: combos.Value) -> Msg:
    """Four players: a whole combination in one call."""
    if kind == combos.POINT:
        return Msg.of("piquet.call.point_pips", seat=seat, count=v[0], pips=v[1])
    if kind == combos.SEQUENCE:
        return Msg.of(f"piquet.call.sequence_to_{RANKS[v[1] - 2]}", seat=seat, length=v[0])
    return _break_call(kind, seat, v)


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _code(c: int) -> str:
    return codes((c,))
