/**
 * The web table, drawn for every game from the server's generic `state` alone: a felt with the
 * seats around it (you at the bottom), the trick in the middle with each card before its seat,
 * the piles and the trump, your hand fanned below with its playable cards raised, the other
 * choices as buttons with their labels, the events, the score sheet and the result. Nothing here
 * knows a game: what a game needs drawn, its view describes. The page never judges a move
 * either: it sends the notation and the version, and the server's next state is the truth.
 */
import { cardBack, cardFace, suitIcon } from "./cards";
import { lang, setLang, t, type Word } from "./i18n";
import type {
  ActionState,
  GameChoice,
  Lang,
  Member,
  PileState,
  Question,
  SeatState,
  ServerMessage,
  TableEntry,
  TableState,
} from "./protocol";

export interface Outbox {
  watch(tableId: number): void;
  join(tableId: number): void;
  open(game: string): void;
  act(tableId: number, version: number, notation: string): boolean;
  changeLang(lang: Lang): void;
}

const TRICK_TAKEN_MS = 650;
const PLAYED_MS = 320;
const FEW_CHOICES = 5;
const LAST_TRICK_PILE = "table.pile.last_trick";
/** The least part of a card that shows beside the next in the hand: its whole index. */
const INDEX_SHOWN = 0.4;
const TOAST_MS = 5000;
const EVENTS_SHOWN = 4;
const ARC_PX = 16;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = "",
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

function button(className: string, text: string, onClick: () => void): HTMLButtonElement {
  const node = el("button", className, text);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

function sameSet(a: readonly string[], b: ReadonlySet<string>): boolean {
  return a.length === b.size && a.every((code) => b.has(code));
}

function clock(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
}

/** Where a seat sits on the felt: you at the bottom, the next seat to your left, and so on. */
function seatAngle(seat: number, me: number, seats: number): number {
  const k = (seat - me + seats) % seats;
  return ((270 - (k * 360) / seats) * Math.PI) / 180;
}

/** Whether the member asked the system for less motion: then nothing travels or slides. */
function still(): boolean {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** A trick as it lay on the table before it was taken, and by whom. */
interface TakenTrick {
  tableId: number;
  cards: [number, string][];
  winner: number | null;
}

export class App {
  private state: TableState | null = null;
  private tables: TableEntry[] = [];
  /** The games a table may be opened for from this page (none where it may not). */
  private games: GameChoice[] = [];
  private picked = new Set<string>();
  private pending: string | null = null;
  private sheetOpen = false;
  /** The action whose question is shown (its notation), until the member answers it. */
  private asking: string | null = null;
  private resultClosed = false;
  /** The trick taken last at this table, as this page saw it lie (or as the game shows it). */
  private lastTrick: TakenTrick | null = null;
  private lastTrickOpen = false;
  private autoWatched = false;
  /** The server's clock less the browser's, in seconds: the demo runs on a simulated clock. */
  private skew = 0;
  private toastTimer: number | undefined;
  private readonly banner = el("div", "banner");
  private readonly toast = el("div", "toast");
  private readonly screen = el("main", "screen");
  private readonly ghosts = el("div", "ghosts");

  constructor(
    private readonly root: HTMLElement,
    private outbox: Outbox | null = null,
  ) {
    this.toast.setAttribute("role", "status");
    this.root.replaceChildren(this.screen, this.banner, this.ghosts, this.toast);
    window.setInterval(() => this.tick(), 250);
    window.addEventListener("resize", () => {
      if (this.state) {
        this.drawTable();
      }
    });
  }

  connectOutbox(outbox: Outbox): void {
    this.outbox = outbox;
  }

  /** The table shown now, asked for again after a reconnection. */
  currentTable(): number | null {
    return this.state?.table_id ?? null;
  }

  // --- screens before the table ---------------------------------------------------------------

  status(text: string, retry?: () => void): void {
    this.state = null;
    const box = el("section", "panel status");
    box.append(el("h1", "", t("title")), el("p", "status-text", text));
    if (retry) {
      box.append(button("primary", t("retry"), retry));
    }
    this.screen.replaceChildren(box);
  }

  picker(members: Member[], choose: (member: Member) => void): void {
    const box = el("section", "panel picker");
    box.append(el("h1", "", t("title")), el("p", "", t("demo_note")), el("h2", "", t("pick_member")));
    const list = el("div", "members");
    for (const member of members) {
      const pick = button("member", member.name, () => choose(member));
      pick.dataset.member = member.id;
      list.append(pick);
    }
    box.append(list);
    this.screen.replaceChildren(box);
  }

  connection(up: boolean): void {
    this.banner.textContent = up ? "" : t("reconnecting");
    this.banner.classList.toggle("shown", !up);
    this.root.classList.toggle("offline", !up); // the screen moves down below the banner
  }

  showToast(text: string): void {
    this.toast.textContent = text;
    this.toast.classList.add("shown");
    window.clearTimeout(this.toastTimer);
    this.toastTimer = window.setTimeout(() => this.toast.classList.remove("shown"), TOAST_MS);
  }

  // --- messages from the server ---------------------------------------------------------------

  receive(message: ServerMessage): void {
    switch (message.type) {
      case "tables": {
        const seatedBefore = new Set(this.tables.filter((table) => table.seated).map((table) => table.table_id));
        this.tables = message.tables;
        this.games = message.games;
        if (!this.state) {
          this.drawTables();
          this.maybeAutoWatch(seatedBefore);
        }
        break;
      }
      case "state":
        this.showState(message);
        break;
      case "ack":
        break;
      case "refused":
        this.pending = null;
        this.showToast(message.message);
        if (this.state) {
          this.drawTable();
        } else {
          this.drawTables();
        }
        break;
      case "error":
        this.status(message.message);
        break;
    }
  }

  /**
   * Goes to the member's seat: at once when the page opens on the list, and when a table where
   * the member now sits appears on the list shown (opened or joined in another tab, or in the
   * channel), so that two tabs of one member stay at one table.
   */
  private maybeAutoWatch(seatedBefore: ReadonlySet<number>): void {
    const first = !this.autoWatched;
    this.autoWatched = true;
    const mine = this.tables.filter((table) => table.seated && table.status !== "finished" && table.status !== "ended");
    const fresh = mine.filter((table) => !seatedBefore.has(table.table_id));
    const goTo = first ? (mine.length === 1 ? mine[0] : undefined) : fresh.length === 1 ? fresh[0] : undefined;
    if (goTo) {
      this.outbox?.watch(goTo.table_id);
    }
  }

  private drawTables(): void {
    const box = el("section", "panel tables");
    const head = el("div", "panel-head");
    head.append(el("h1", "", t("tables")), this.langButton());
    box.append(head);
    if (this.tables.length === 0 && this.games.length === 0) {
      box.append(el("p", "empty", t("no_tables")));
    }
    const list = el("ul", "table-list");
    for (const table of this.tables) {
      const item = el("li", "table-entry");
      item.dataset.table = String(table.table_id);
      const about = el("div", "about");
      about.append(
        el("strong", "", table.game_name),
        el("span", "table-status", ` · ${t(`status_${table.status}` as Word)}`),
        el("div", "players", table.players.join(", ")),
      );
      const choices = el("div", "choices");
      if (table.seated) {
        choices.append(button("primary watch", t("open_seat"), () => this.outbox?.watch(table.table_id)));
      } else {
        choices.append(button("watch", t("watch"), () => this.outbox?.watch(table.table_id)));
      }
      if (table.can_join) {
        choices.append(button("primary join", t("join"), () => this.outbox?.join(table.table_id)));
      }
      item.append(about, choices);
      list.append(item);
    }
    box.append(list);
    if (this.games.length > 0) {
      box.append(this.gameChoices());
    }
    this.screen.replaceChildren(box);
  }

  /** A channel with no table: the games, one button each; a click opens a table here. */
  private gameChoices(): HTMLElement {
    const box = el("div", "open-table");
    box.append(el("h2", "", t("open_table")), el("p", "open-note", t("open_note")));
    const list = el("div", "games");
    for (const game of this.games) {
      const pick = button("game-choice", game.name, () => {
        for (const other of list.querySelectorAll("button")) {
          other.disabled = true; // one table at a time: the server's answer redraws the page
        }
        pick.classList.add("pressed");
        this.outbox?.open(game.id);
      });
      pick.dataset.game = game.id;
      list.append(pick);
    }
    box.append(list);
    return box;
  }

  private backToTables(): void {
    this.state = null;
    this.sheetOpen = false;
    this.picked.clear();
    this.drawTables();
  }

  private langButton(): HTMLButtonElement {
    const next: Lang = lang() === "sv" ? "en" : "sv";
    const node = button("lang", t("language"), () => {
      setLang(next);
      this.outbox?.changeLang(next);
      if (this.state) {
        this.drawTable();
      } else {
        this.drawTables();
      }
    });
    node.lang = next;
    return node;
  }

  // --- the table ------------------------------------------------------------------------------

  private showState(state: TableState): void {
    const before = this.state;
    const taken = before ? this.trickTaken(before, state) : null;
    const ghosts = taken === null ? [] : this.trickRects();
    if (before && taken !== null && before.table_id === state.table_id) {
      this.lastTrick = { tableId: state.table_id, cards: [...before.view.trick], winner: taken };
    }
    const from = before?.table_id === state.table_id ? this.cardOrigins() : null;
    const played = before?.table_id === state.table_id ? this.newlyPlayed(before, state) : [];
    if (before?.table_id !== state.table_id || before.version !== state.version) {
      this.pending = null;
    }
    if (before?.table_id !== state.table_id) {
      this.sheetOpen = false;
      this.lastTrickOpen = false;
      if (this.lastTrick?.tableId !== state.table_id) {
        this.lastTrick = null;
      }
      this.asking = null;
      this.resultClosed = false;
      this.picked.clear();
    }
    // Keep only picked cards that some choice of several cards can still use.
    const pickable = new Set(state.actions.filter((a) => a.verb && a.cards.length > 0).flatMap((a) => a.cards));
    for (const code of [...this.picked]) {
      if (!pickable.has(code)) {
        this.picked.delete(code);
      }
    }
    this.state = state;
    this.skew = state.now - Date.now() / 1000;
    if (state.lang !== lang()) {
      setLang(state.lang);
    }
    this.drawTable();
    if (from !== null && played.length > 0) {
      this.travel(from, played);
    }
    if (taken !== null) {
      this.takeTrick(ghosts, taken);
    }
  }

  /** Where each card of your hand and each seat is drawn now, before the next state is drawn. */
  private cardOrigins(): { hand: Map<string, DOMRect>; seats: Map<number, DOMRect> } {
    const hand = new Map<string, DOMRect>();
    for (const card of this.screen.querySelectorAll<HTMLElement>(".hand .card")) {
      hand.set(card.dataset.card ?? "", card.getBoundingClientRect());
    }
    const seats = new Map<number, DOMRect>();
    for (const seat of this.screen.querySelectorAll<HTMLElement>(".felt > .seat")) {
      seats.set(Number(seat.dataset.seat), seat.getBoundingClientRect());
    }
    return { hand, seats };
  }

  /** The cards of the trick in `after` that were not on the table in `before`: just played. */
  private newlyPlayed(before: TableState, after: TableState): [number, string][] {
    const old = new Set(before.view.trick.map(([seat, code]) => `${seat}:${code}`));
    return after.view.trick.filter(([seat, code]) => !old.has(`${seat}:${code}`));
  }

  /**
   * A card just played travels to its place in the trick: from your hand where it lay, from
   * its seat for the others. The card is drawn at its place at once and only seems to travel
   * (a CSS transition of its `translate`), so that the boxes are right from the start.
   */
  private travel(from: { hand: Map<string, DOMRect>; seats: Map<number, DOMRect> }, played: [number, string][]): void {
    if (still()) {
      return;
    }
    const me = this.state?.seat ?? null;
    for (const [seat, code] of played) {
      const card = this.screen.querySelector<HTMLElement>(`.trick .card[data-seat="${seat}"][data-card="${code}"]`);
      const start = (seat === me ? from.hand.get(code) : undefined) ?? from.seats.get(seat);
      if (!card || !start) {
        continue;
      }
      const end = card.getBoundingClientRect();
      const scale = card.offsetWidth > 0 ? end.width / card.offsetWidth : 1; // the middle may be drawn smaller
      const dx = (start.left + start.width / 2 - (end.left + end.width / 2)) / scale;
      const dy = (start.top + start.height / 2 - (end.top + end.height / 2)) / scale;
      card.classList.add("arriving");
      card.style.setProperty("translate", `${dx}px ${dy}px`);
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          card.classList.add("travel");
          card.style.setProperty("translate", "0px 0px");
          window.setTimeout(() => card.classList.remove("arriving", "travel"), PLAYED_MS + 50);
        }),
      );
    }
  }
  /** The seat that took the trick shown before `after`, or null when no trick was taken. */
  private trickTaken(before: TableState, after: TableState): number | null {
    if (before.table_id !== after.table_id || before.view.trick.length === 0) {
      return null;
    }
    const old = before.view.trick;
    const now = after.view.trick;
    const goesOn = now.length >= old.length && old.every(([seat, code], i) => now[i]?.[0] === seat && now[i]?.[1] === code);
    if (goesOn) {
      return null;
    }
    // The seat whose count of tricks went up took it; else the seat that leads the next one.
    const gained = after.view.seats.findIndex(
      (seat, i) => seat.tricks !== null && seat.tricks > (before.view.seats[i]?.tricks ?? seat.tricks),
    );
    if (gained >= 0) {
      return gained;
    }
    const lead = now[0]?.[0];
    if (lead !== undefined) {
      return lead;
    }
    return after.view.to_act.length === 1 ? (after.view.to_act[0] ?? null) : null;
  }

  private trickRects(): { code: string; rect: DOMRect }[] {
    return [...this.screen.querySelectorAll<HTMLElement>(".trick .card")].map((card) => ({
      code: card.dataset.card ?? "",
      rect: card.getBoundingClientRect(),
    }));
  }

  /** The trick just taken slides to its winner's seat and fades there. */
  private takeTrick(cards: { code: string; rect: DOMRect }[], winner: number): void {
    const seat = this.screen.querySelector<HTMLElement>(`.seat[data-seat="${winner}"]`);
    if (!seat || cards.length === 0 || still()) {
      return;
    }
    const target = seat.getBoundingClientRect();
    const group = el("div", "taken");
    group.dataset.winner = String(winner);
    for (const { code, rect } of cards) {
      const ghost = cardFace(code);
      ghost.classList.add("ghost");
      ghost.style.setProperty("left", `${rect.left}px`);
      ghost.style.setProperty("top", `${rect.top}px`);
      ghost.style.setProperty("width", `${rect.width}px`);
      ghost.style.setProperty("height", `${rect.height}px`);
      group.append(ghost);
    }
    this.ghosts.append(group);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        for (const [i, ghost] of [...group.children].entries()) {
          const rect = cards[i]?.rect;
          if (!rect || !(ghost instanceof HTMLElement)) {
            continue;
          }
          const dx = target.left + target.width / 2 - (rect.left + rect.width / 2);
          const dy = target.top + target.height / 2 - (rect.top + rect.height / 2);
          ghost.style.setProperty("transform", `translate(${dx}px, ${dy}px) scale(0.4)`);
          ghost.style.setProperty("opacity", "0");
        }
      }),
    );
    window.setTimeout(() => group.remove(), TRICK_TAKEN_MS + 100);
  }

  private drawTable(): void {
    const state = this.state;
    if (!state) {
      return;
    }
    const page = el("section", "table-screen");
    page.dataset.table = String(state.table_id);
    page.dataset.version = String(state.version);
    page.dataset.status = state.status;
    page.dataset.game = state.game;
    page.append(this.header(state), this.felt(state), this.events(state), this.mine(state));
    if (this.sheetOpen && state.view.sheet) {
      page.append(this.sheet(state));
    }
    const last = this.shownLastTrick(state);
    if (this.lastTrickOpen && last) {
      page.append(this.lastTrickBox(state, last));
    } else {
      this.lastTrickOpen = false;
    }
    if (state.result && !this.resultClosed) {
      page.append(this.result(state));
    } else if (state.status === "ended" && !this.resultClosed) {
      page.append(this.ended(state));
    }
    // The question stays while its action is still offered with one (a fresh count of seats).
    const asked = state.actions.find((a) => a.notation === this.asking && a.confirm);
    if (asked?.confirm) {
      page.append(this.question(asked.confirm));
    } else {
      this.asking = null;
    }
    this.screen.replaceChildren(page);
    this.fanHand();
    this.tick(); // the clocks' text first: a seat's box is measured with it
    this.settleFelt();
  }

  /**
   * Keeps the felt readable at any size, by the boxes drawn: every seat is moved in from the
   * rail onto the felt, seats that lie over each other are moved apart, and the middle (trick
   * and piles) is drawn smaller until no seat covers it.
   */
  private settleFelt(): void {
    const felt = this.screen.querySelector<HTMLElement>(".felt");
    if (!felt) {
      return;
    }
    const seats = [...felt.querySelectorAll<HTMLElement>(":scope > .seat")];
    const outer = felt.getBoundingClientRect();
    const room = {
      left: outer.left + felt.clientLeft + 2,
      top: outer.top + felt.clientTop + 2,
      right: outer.left + felt.clientLeft + felt.clientWidth - 2,
      bottom: outer.top + felt.clientTop + felt.clientHeight - 2,
    };
    const moved = new Map<HTMLElement, [number, number]>();
    const move = (seat: HTMLElement, dx: number, dy: number): void => {
      const [x, y] = moved.get(seat) ?? [0, 0];
      moved.set(seat, [x + dx, y + dy]);
      seat.style.setProperty("translate", `${x + dx}px ${y + dy}px`);
    };
    const onFelt = (seat: HTMLElement): void => {
      const box = seat.getBoundingClientRect();
      const dx = box.left < room.left ? room.left - box.left : Math.min(0, room.right - box.right);
      const dy = box.top < room.top ? room.top - box.top : Math.min(0, room.bottom - box.bottom);
      if (dx !== 0 || dy !== 0) {
        move(seat, dx, dy);
      }
    };
    seats.forEach(onFelt);
    for (let pass = 0; pass < 12; pass++) {
      let apart = true;
      for (const [i, seat] of seats.entries()) {
        for (const other of seats.slice(i + 1)) {
          const a = seat.getBoundingClientRect();
          const b = other.getBoundingClientRect();
          const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (across <= 1 || down <= 1) {
            continue;
          }
          apart = false;
          const [upper, lower] = a.top <= b.top ? [seat, other] : [other, seat];
          move(upper, 0, -(down / 2 + 2));
          move(lower, 0, down / 2 + 2);
          onFelt(upper);
          onFelt(lower);
        }
      }
      if (apart) {
        break;
      }
    }
    const middle = felt.querySelector<HTMLElement>(".table-middle");
    if (!middle) {
      return;
    }
    const parts = (): DOMRect[] =>
      [...middle.querySelectorAll<HTMLElement>(".pile, .trick .card")].map((n) => n.getBoundingClientRect());
    const covered = (): boolean =>
      seats.some((seat) => {
        const a = seat.getBoundingClientRect();
        return parts().some(
          (b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1,
        );
      });
    for (let scale = 1; scale >= 0.5 && covered(); scale -= 0.1) {
      middle.style.setProperty("scale", String(scale - 0.1));
    }
    // Still covered (many seats on a short felt): the middle moves to the nearest free spot.
    const shifts: [number, number][] = [];
    for (let dx = -64; dx <= 64; dx += 8) {
      for (let dy = -64; dy <= 64; dy += 8) {
        shifts.push([dx, dy]);
      }
    }
    shifts.sort((a, b) => Math.hypot(...a) - Math.hypot(...b));
    for (const [dx, dy] of shifts) {
      if (!covered()) {
        break;
      }
      middle.style.setProperty("translate", `${dx}px ${dy}px`);
    }
    if (covered()) {
      middle.style.removeProperty("translate");
    }
  }

  private header(state: TableState): HTMLElement {
    const bar = el("header", "bar");
    bar.append(button("back", t("back"), () => this.backToTables()));
    const title = el("div", "title");
    title.append(el("strong", "game-name", state.game_name), el("span", "phase", state.view.phase));
    if (state.view.deal > 1 || state.status === "playing") {
      title.append(el("span", "deal", `${t("deal")} ${state.view.deal}`));
    }
    bar.append(title);
    if (state.view.trump || state.view.trump_text) {
      const trump = el("div", "trump");
      trump.title = t("trump");
      if (state.view.trump) {
        trump.append(suitIcon(state.view.trump, "trump-suit"));
      }
      trump.append(el("span", "", state.view.trump_text ?? t("trump")));
      bar.append(trump);
    }
    if (state.view.joker_text) {
      bar.append(el("div", "joker-as", state.view.joker_text));
    }
    if (state.deadline !== null) {
      const left = el("div", "clock deadline");
      left.dataset.until = String(state.deadline);
      bar.append(left);
    }
    const tools = el("div", "tools");
    if (state.view.sheet) {
      tools.append(
        button("sheet-button", t("sheet"), () => {
          this.sheetOpen = true;
          this.drawTable();
        }),
      );
    }
    if (this.shownLastTrick(state)) {
      tools.append(
        button("last-trick-button", t("last_trick"), () => {
          this.lastTrickOpen = true;
          this.drawTable();
        }),
      );
    }
    tools.append(this.langButton());
    bar.append(tools);
    return bar;
  }

  private felt(state: TableState): HTMLElement {
    const felt = el("div", "felt");
    const count = state.view.seats.length;
    felt.dataset.seats = String(count);
    const me = state.seat ?? 0;
    state.view.seats.forEach((seat, index) => {
      const angle = seatAngle(index, me, count);
      const box = this.seatBox(state, seat, index);
      const x = Math.cos(angle);
      // Seats on the sides lean on the rail, so that a narrow screen never cuts them.
      if (x < -0.45) {
        box.classList.add("west");
      } else if (x > 0.45) {
        box.classList.add("east");
      } else {
        box.style.setProperty("left", `${50 + 41 * x}%`);
      }
      box.style.setProperty("top", `${50 - 39 * Math.sin(angle)}%`);
      felt.append(box);
    });
    const middle = el("div", "table-middle");
    const piles = state.view.piles.filter((pile) => pile.seat === null);
    if (piles.length > 0) {
      const row = el("div", "piles");
      for (const pile of piles) {
        row.append(this.pile(pile));
      }
      middle.append(row);
    }
    const trick = el("div", "trick");
    state.view.trick.forEach(([seat, code], order) => {
      const angle = seatAngle(seat, me, count);
      const card = cardFace(code);
      card.dataset.seat = String(seat);
      card.style.setProperty("left", `${50 + 24 * Math.cos(angle)}%`);
      card.style.setProperty("top", `${50 - 30 * Math.sin(angle)}%`);
      card.style.setProperty("z-index", String(order + 1));
      const note = state.view.trick_notes[order];
      if (note) {
        card.title = note;
        card.append(el("span", "trick-note", note));
      }
      if (code === "JK" && state.view.joker_text) {
        card.title = state.view.joker_text;
      }
      trick.append(card);
    });
    middle.append(trick);
    felt.append(middle);
    if (state.reaction) {
      const window_ = el("div", "reaction clock");
      window_.dataset.until = String(state.reaction.closes);
      window_.dataset.from = String(state.reaction.opened);
      felt.append(window_);
    }
    return felt;
  }

  private seatBox(state: TableState, seat: SeatState, index: number): HTMLElement {
    const box = el("div", "seat");
    box.dataset.seat = String(index);
    box.classList.toggle("you", seat.you);
    box.classList.toggle("turn", seat.turn);
    if (seat.team !== null) {
      box.classList.add(`team-${seat.team % 4}`);
    }
    const name = el("div", "name");
    name.append(el("span", "seat-name", seat.name));
    if (seat.dealer) {
      name.append(el("span", "badge dealer", t("dealer")));
    }
    if (seat.computer) {
      name.append(el("span", "badge computer", t("computer")));
    }
    box.append(name);
    const stats = el("div", "stats");
    const count = el("span", "count");
    count.title = t("cards");
    count.append(cardBack("tiny"), el("span", "", String(seat.cards)));
    stats.append(count);
    if (seat.tricks !== null) {
      stats.append(el("span", "tricks", `${seat.tricks} ${t("tricks")}`));
    }
    if (seat.score_text !== null) {
      stats.append(el("span", "score", seat.score_text));
    }
    box.append(stats);
    if (seat.turn && state.deadline !== null) {
      const left = el("div", "clock seat-clock");
      left.dataset.until = String(state.deadline);
      box.append(left);
    }
    for (const note of seat.notes) {
      box.append(el("div", "seat-note", note));
    }
    if (seat.shown.length > 0) {
      const shown = el("div", "shown");
      for (const code of seat.shown) {
        shown.append(cardFace(code, "small"));
      }
      box.append(shown);
    }
    for (const pile of state.view.piles.filter((p) => p.seat === index)) {
      box.append(this.pile(pile));
    }
    return box;
  }

  private pile(pile: PileState): HTMLElement {
    const box = el("div", "pile");
    box.dataset.key = pile.key;
    box.append(el("div", "pile-name", pile.name));
    const cards = el("div", "pile-cards");
    if (pile.hidden > 0) {
      const back = cardBack("small");
      back.append(el("span", "hidden-count", `×${pile.hidden}`));
      cards.append(back);
    }
    for (const code of pile.cards) {
      cards.append(cardFace(code, "small"));
    }
    box.append(cards);
    return box;
  }

  private events(state: TableState): HTMLElement {
    const log = el("ol", "events");
    log.setAttribute("aria-live", "polite");
    for (const text of state.view.events.slice(-EVENTS_SHOWN)) {
      const line = el("li", "", text);
      line.title = text; // one line each, cut with an ellipsis where it is long: whole here
      log.append(line);
    }
    return log;
  }

  /** What is yours: your private notes, whose turn it is, your hand and your choices. */
  private mine(state: TableState): HTMLElement {
    const box = el("div", "mine");
    for (const note of state.view.notes) {
      box.append(el("div", "note", note));
    }
    box.append(this.prompt(state));
    const actions = state.actions;
    const inHand = new Set(state.view.hand);
    const held = (action: ActionState): boolean =>
      action.cards.length > 0 && action.cards.every((code) => inHand.has(code));
    // One click plays a card: a plain card play whose card is in the hand.
    // A card two plain actions play (the joker naming a suit) is chosen by their buttons.
    const plays = new Map<string, ActionState>();
    const twice = new Set<string>();
    for (const action of actions) {
      const code = action.cards[0];
      if (action.verb === "" && action.cards.length === 1 && held(action) && code) {
        if (plays.has(code)) {
          twice.add(code);
        }
        plays.set(code, action);
      }
    }
    for (const code of twice) {
      plays.delete(code);
    }
    // Pick, then confirm: the choices that name cards of the hand, when no card plays at once.
    const choices = plays.size === 0 ? actions.filter((a) => a.verb !== "" && held(a)) : [];
    const pickable = new Set(choices.flatMap((a) => a.cards));
    const buttons = actions.filter(
      (a) => !(a.verb === "" && plays.get(a.cards[0] ?? "") === a) && !choices.includes(a),
    );

    const hand = el("div", "hand");
    const marked = new Set(state.view.marked);
    for (const code of state.view.hand) {
      const card = cardFace(code);
      card.classList.toggle("marked", marked.has(code));
      const play = plays.get(code);
      if (play) {
        card.classList.add("playable");
        card.tabIndex = 0;
        card.setAttribute("role", "button");
        card.title = this.helpOf(play) ?? play.label;
        this.onPress(card, () => this.act(play.notation, card));
      } else if (pickable.has(code)) {
        card.classList.add("pickable");
        card.classList.toggle("picked", this.picked.has(code));
        card.tabIndex = 0;
        card.setAttribute("role", "button");
        card.setAttribute("aria-pressed", String(this.picked.has(code)));
        this.onPress(card, () => {
          if (this.picked.has(code)) {
            this.picked.delete(code);
          } else {
            this.picked.add(code);
          }
          this.drawTable();
        });
      }
      if (this.pending !== null && play?.notation === this.pending) {
        card.classList.add("pressed");
      }
      hand.append(card);
    }
    box.append(hand);

    const row = el("div", "actions");
    if (choices.length > 0) {
      row.append(this.confirmRow(choices));
    }
    for (const action of buttons) {
      const node = button("action", action.label, () => {
        if (action.confirm) {
          this.asking = action.notation; // asked first, as in Discord: bot/offers.py
          this.drawTable();
        } else {
          this.act(action.notation, node);
        }
      });
      node.dataset.notation = action.notation;
      const help = this.helpOf(action);
      if (help) {
        node.title = help;
      }
      if (this.pending !== null) {
        node.disabled = true;
        node.classList.toggle("pressed", action.notation === this.pending);
      }
      row.append(node);
    }
    // The lobby's few choices wrap to a second line on a phone; a game's many scroll in one row.
    row.classList.toggle("few", state.status === "lobby" && buttons.length <= FEW_CHOICES);
    if (row.childElementCount > 0) {
      box.append(row);
    }
    return box;
  }

  private confirmRow(choices: ActionState[]): HTMLElement {
    const row = el("div", "confirm-row");
    const matching = choices.filter((a) => sameSet(a.cards, this.picked));
    const sizes = [...new Set(choices.map((a) => a.cards.length))].sort((a, b) => a - b);
    row.append(el("span", "pick-hint", `${t("pick_cards")}: ${this.picked.size} / ${sizes.join(", ")}`));
    if (matching.length === 0) {
      const confirm = button("confirm primary", t("confirm"), () => undefined);
      confirm.disabled = true;
      row.append(confirm);
    }
    for (const action of matching) {
      const confirm = button("confirm primary", action.label, () => this.act(action.notation, confirm));
      confirm.dataset.notation = action.notation;
      const help = this.helpOf(action);
      if (help) {
        confirm.title = help;
      }
      confirm.disabled = this.pending !== null;
      row.append(confirm);
    }
    if (this.picked.size > 0) {
      row.append(
        button("clear", t("clear"), () => {
          this.picked.clear();
          this.drawTable();
        }),
      );
    }
    return row;
  }

  /** An action's help: its own, else its verb's (sent once in the state for all of them). */
  private helpOf(action: ActionState): string | null {
    return action.help ?? this.state?.helps[action.verb] ?? null;
  }

  private onPress(node: HTMLElement, run: () => void): void {
    node.addEventListener("click", run);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        run();
      }
    });
  }

  private prompt(state: TableState): HTMLElement {
    const line = el("div", "prompt");
    const seats = state.view.seats;
    if (state.seat === null) {
      line.textContent = `${t("spectator")}: ${state.game_name}`;
    } else if (state.status === "lobby") {
      // The lobby's buttons (a computer player, start, leave) are offers, not a turn.
      line.textContent = t("lobby_waiting");
    } else if (state.actions.length > 0) {
      line.classList.add("your-turn");
      line.append(el("span", "turn-word", t("your_turn")));
      if (state.deadline !== null) {
        const left = el("span", "clock turn-clock");
        left.dataset.until = String(state.deadline);
        left.title = t("time_left");
        line.append(left);
      }
    } else if (state.view.to_act.length > 0 && state.status === "playing") {
      const names = state.view.to_act.map((seat) => seats[seat]?.name ?? "?");
      line.textContent = `${t("waiting")} ${names.join(", ")}`;
    } else {
      line.textContent = t(`status_${state.status}` as Word);
    }
    return line;
  }

  /** Sends a move; the button or card shows it pressed at once, the server's answer decides. */
  private act(notation: string, node: HTMLElement): void {
    const state = this.state;
    if (!state || this.pending !== null || !this.outbox) {
      return;
    }
    if (!this.outbox.act(state.table_id, state.version, notation)) {
      return;
    }
    this.pending = notation;
    node.classList.add("pressed");
    for (const other of this.screen.querySelectorAll<HTMLButtonElement>(".mine button")) {
      if (other !== node) {
        other.disabled = true;
      }
    }
    this.picked.clear();
  }

  /** The question before an action that cannot be undone; yes sends its own notation. */
  private question(confirm: Question): HTMLElement {
    const overlay = el("div", "overlay question-overlay");
    const box = el("div", "panel question");
    box.append(el("p", "question-text", confirm.text));
    const choices = el("div", "choices");
    const yes = button("primary yes", confirm.label, () => {
      this.asking = null;
      this.act(confirm.notation, yes);
    });
    yes.dataset.notation = confirm.notation;
    choices.append(
      yes,
      button("cancel", t("cancel"), () => {
        this.asking = null;
        this.drawTable();
      }),
    );
    box.append(choices);
    overlay.append(box);
    return overlay;
  }

  private sheet(state: TableState): HTMLElement {
    const sheet = state.view.sheet;
    const overlay = el("div", "overlay sheet-overlay");
    const box = el("div", "panel sheet");
    const head = el("div", "panel-head");
    head.append(
      el("h2", "", t("sheet")),
      button("close", t("close"), () => {
        this.sheetOpen = false;
        this.drawTable();
      }),
    );
    box.append(head);
    if (sheet) {
      const table = el("table", "score-sheet");
      const top = el("tr");
      top.append(el("th"));
      for (const column of sheet.columns) {
        top.append(el("th", "", column));
      }
      table.append(top);
      for (const row of sheet.rows) {
        const line = el("tr", row.rule_below ? "rule-below" : "");
        line.append(el("th", "", row.label));
        for (const cell of row.cells) {
          line.append(el("td", "", cell === null ? "" : String(cell)));
        }
        table.append(line);
      }
      const scroll = el("div", "sheet-scroll");
      scroll.append(table);
      box.append(scroll);
    }
    overlay.append(box);
    return overlay;
  }

  /**
   * The last trick taken: the game's own where its view shows one (a pile), else the one this
   * page saw taken at this table. None before the first trick, and none once the deal's next
   * trick is more than a lead away from it would still be right: the page keeps the latest only.
   */
  private shownLastTrick(state: TableState): TakenTrick | null {
    const pile = state.view.piles.find((p) => p.key === LAST_TRICK_PILE && p.cards.length > 0);
    if (pile) {
      return { tableId: state.table_id, cards: pile.cards.map((code) => [pile.seat ?? -1, code]), winner: pile.seat };
    }
    if (state.status !== "playing" || this.lastTrick?.tableId !== state.table_id) {
      return null;
    }
    return this.lastTrick;
  }

  /** The last trick on a tap: its cards before the seats that played them, and who took it. */
  private lastTrickBox(state: TableState, last: TakenTrick): HTMLElement {
    const overlay = el("div", "overlay last-trick-overlay");
    const close = (): void => {
      this.lastTrickOpen = false;
      this.drawTable();
    };
    overlay.addEventListener("click", close);
    const box = el("div", "panel last-trick");
    box.setAttribute("role", "dialog");
    const head = el("div", "panel-head");
    head.append(el("h2", "", t("last_trick")), button("close", t("close"), close));
    box.append(head);
    const cards = el("div", "last-trick-cards");
    for (const [seat, code] of last.cards) {
      const place = el("figure", "played");
      place.append(cardFace(code));
      const name = state.view.seats[seat]?.name;
      if (name) {
        place.append(el("figcaption", "", name));
      }
      cards.append(place);
    }
    box.append(cards);
    const winner = last.winner === null ? undefined : state.view.seats[last.winner]?.name;
    if (winner) {
      box.append(el("p", "taken-by", `${t("taken_by")}: ${winner}`));
    }
    overlay.append(box);
    return overlay;
  }

  /** A table closed before its match was over (by its host, idle, abandoned): said plainly. */
  private ended(state: TableState): HTMLElement {
    const overlay = el("div", "overlay ended-overlay");
    const box = el("div", "panel ended");
    box.setAttribute("role", "alertdialog");
    box.append(el("h2", "", `${t("table_ended")}: ${state.game_name}`), el("p", "", t("table_ended_note")));
    const choices = el("div", "choices");
    choices.append(
      button("close", t("close"), () => {
        this.resultClosed = true;
        this.drawTable();
      }),
      button("primary", t("back"), () => this.backToTables()),
    );
    box.append(choices);
    overlay.append(box);
    return overlay;
  }

  private result(state: TableState): HTMLElement {
    const result = state.result;
    const overlay = el("div", "overlay result-overlay");
    const box = el("div", "panel result");
    box.append(el("h2", "", `${t("result")}: ${state.game_name}`));
    if (result) {
      const list = el("ol", "places");
      for (const row of [...result.rows].sort((a, b) => a.place - b.place)) {
        const item = el("li", `place-${row.place}`);
        item.append(
          el("span", "place", row.place_text),
          el("span", "who", row.name),
          el("span", "final", String(row.score)),
        );
        list.append(item);
      }
      box.append(list);
      for (const line of result.lines) {
        box.append(el("p", "result-line", line));
      }
    }
    const choices = el("div", "choices");
    choices.append(
      button("close", t("close"), () => {
        this.resultClosed = true;
        this.drawTable();
      }),
      button("primary", t("back"), () => this.backToTables()),
    );
    box.append(choices);
    overlay.append(box);
    return overlay;
  }

  /**
   * Overlaps the hand's cards so that the whole hand fits the width, in a gentle fan. Where so
   * many cards would overlap past their index (Snipp snapp snorum's 26 on a phone), the hand is
   * fanned in two rows, the second lower by most of a card, so every index stays readable.
   */
  private fanHand(): void {
    const hand = this.screen.querySelector<HTMLElement>(".hand");
    if (!hand) {
      return;
    }
    const cards = [...hand.children] as HTMLElement[];
    if (cards.length === 0) {
      return;
    }
    const width = hand.clientWidth || window.innerWidth;
    const cardWidth = cards[0]?.offsetWidth || 60;
    const cardHeight = cards[0]?.offsetHeight || 84;
    const room = (count: number): number => {
      const turn = Math.min(2.5, 24 / count);
      const outer = (((count - 1) / 2) * turn * Math.PI) / 180;
      // The outer cards turn out past their slot, by half their height's sine: keep that margin.
      return width - cardWidth - 2 * (cardHeight * Math.sin(outer) * 0.5 + 8);
    };
    let rows = 1;
    while (rows < 3 && room(Math.ceil(cards.length / rows)) / (Math.ceil(cards.length / rows) - 1) < cardWidth * INDEX_SHOWN) {
      rows += 1;
    }
    if (rows === 1) {
      this.fanRow(hand, cards, cardWidth, room(cards.length), ARC_PX);
      return;
    }
    hand.classList.add("rows");
    const each = Math.ceil(cards.length / rows);
    for (let r = 0; r < rows; r++) {
      const row = el("div", "hand-row");
      const part = cards.slice(r * each, (r + 1) * each);
      row.append(...part);
      hand.append(row);
      // Flatter rows: an outer card of one row must not drop over the next row's indices.
      this.fanRow(row, part, cardWidth, room(part.length), ARC_PX / 4);
    }
  }

  private fanRow(row: HTMLElement, cards: HTMLElement[], cardWidth: number, room: number, arc: number): void {
    const count = cards.length;
    const middle = (count - 1) / 2;
    const turn = Math.min(2.5, 24 / count);
    const outer = (middle * turn * Math.PI) / 180;
    const step = count > 1 ? Math.min(cardWidth * 0.72, room / (count - 1)) : 0;
    // The arc drops the outer cards by at most `arc`; the row keeps room below for it.
    const bend = middle > 0 ? Math.min(turn / 4, arc / (middle * middle)) : 0;
    const drop = bend * middle * middle + (cardWidth / 2) * Math.sin(outer);
    row.style.setProperty("padding-bottom", `${Math.max(14, Math.ceil(drop) + 6)}px`);
    cards.forEach((card, i) => {
      card.style.setProperty("margin-left", i > 0 ? `${step - cardWidth}px` : "0px");
      const off = i - middle;
      card.style.setProperty("--rot", `${off * turn}deg`);
      card.style.setProperty("--arc", `${off * off * bend}px`);
    });
  }

  /** Counts the deadlines and the reaction window down, every quarter of a second. */
  private tick(): void {
    const now = Date.now() / 1000 + this.skew;
    for (const node of this.screen.querySelectorAll<HTMLElement>(".clock")) {
      const until = Number(node.dataset.until);
      const left = until - now;
      node.textContent = clock(left);
      node.classList.toggle("short", left < 10);
      if (node.dataset.from) {
        const from = Number(node.dataset.from);
        const share = Math.max(0, Math.min(1, left / Math.max(0.001, until - from)));
        node.style.setProperty("--left", String(share));
      }
    }
  }
}
