/**
 * The web table's protocol as the client reads it: the JSON the bot's web server sends and
 * accepts. Generated from bot/web/frames.py by `python -m bot.web.typescript`: do not edit it
 * here (a test fails when the two differ); bot/web/protocol.py says what the values mean. Types
 * only: the client never decides what is legal or secret, it draws what the server sends.
 */

export type Lang = "sv" | "en";

export type Status = "lobby" | "playing" | "paused" | "finished" | "ended";

export type Ink = "black" | "red" | "blue" | "green";

export interface Member {
  id: string;
  name: string;
}

/** `GET /api/config`. */
export interface Config {
  client_id: string;
  demo: boolean;
  /** Only in the demo: its member picker. */
  members?: Member[];
}

/** `POST /api/token`. */
export interface TokenAnswer {
  access_token: string;
  session: string;
  user: Member;
}

/** `POST /api/demo/login`. */
export interface LoginAnswer {
  session: string;
  user: Member;
}

export interface SuitColour {
  /** The colour's name (a class of the card). */
  ink: Ink;
  /** The colour on a white card: #rrggbb. */
  css: string;
}

/** One language's words of the page, from the server's catalogs. */
export interface PageWords {
  /** The page's own words (`web.page.*`; `join` is Discord's). */
  words: Record<string, string>;
  /** The index printed on each rank (`T`: `10`, Swedish `Q`: `D`). */
  ranks: Record<string, string>;
  /** Each suit's name by its letter (`C D H S`). */
  suits: Record<string, string>;
  /** The word printed on the joker. */
  joker: string;
  joker_name: string;
}

/** Served in the page itself (`<script type="application/json" id="kortbord-catalog">`). */
export interface PageCatalog {
  langs: Record<Lang, PageWords>;
  /** The four-colour deck, by suit letter. */
  colours: Record<string, SuitColour>;
}

export interface TableEntry {
  table_id: number;
  game: string;
  game_name: string;
  status: Status;
  players: string[];
  seated: boolean;
  can_join: boolean;
}

export interface SeatState {
  name: string;
  cards: number;
  /** Null in the lobby and in a game without points; its words are in score_text. */
  score: number | null;
  /** The score as the channel words it (12 p, 2 ritor); null where nothing counts. */
  score_text: string | null;
  tricks: number | null;
  shown: string[];
  notes: string[];
  computer: boolean;
  you: boolean;
  team: number | null;
  dealer: boolean;
  turn: boolean;
}

export interface PileState {
  name: string;
  key: string;
  cards: string[];
  hidden: number;
  seat: number | null;
}

export interface SheetRow {
  label: string;
  cells: (number | null)[];
  rule_below: boolean;
}

export interface Sheet {
  columns: string[];
  rows: SheetRow[];
}

export interface ViewState {
  phase: string;
  deal: number;
  dealer: number | null;
  to_act: number[];
  hand: string[];
  marked: string[];
  trump: string | null;
  trump_text: string | null;
  seats: SeatState[];
  trick: [number, string][];
  /** One per card of the trick: what the game notes on it, or null. */
  trick_notes: (string | null)[];
  /** The card a joker counts as now (and in words: joker_text). */
  joker: string | null;
  joker_text: string | null;
  piles: PileState[];
  events: string[];
  notes: string[];
  teams: number[][];
  sheet: Sheet | null;
}

/** What the page asks before an action that cannot be undone, and how it then says yes. */
export interface Question {
  text: string;
  /** The button that says yes. */
  label: string;
  /** What the page sends when the member says yes. */
  notation: string;
}

export interface ActionState {
  notation: string;
  label: string;
  verb: string;
  cards: string[];
  help: string | null;
  /** Asked before the action is sent; null: sent at once. */
  confirm: Question | null;
}

export interface ResultRow {
  seat: number;
  name: string;
  place: number;
  place_text: string;
  score: number;
}

export interface ResultState {
  rows: ResultRow[];
  lines: string[];
}

export interface Reaction {
  opened: number;
  closes: number;
}

export interface TableState {
  type: "state";
  table_id: number;
  version: number;
  status: Status;
  seat: number | null;
  lang: Lang;
  game: string;
  game_name: string;
  /** The server's clock when the frame was made: deadlines count down from it. */
  now: number;
  deadline: number | null;
  reaction: Reaction | null;
  view: ViewState;
  actions: ActionState[];
  result: ResultState | null;
}

export interface TablesMessage {
  type: "tables";
  tables: TableEntry[];
}

export interface Ack {
  type: "ack";
  version: number;
}

export interface Refusal {
  type: "refused";
  code: string;
  message: string;
}

export interface ErrorMessage {
  type: "error";
  code: string;
  message: string;
}

export interface Hello {
  type: "hello";
  session: string;
  table_id: number | null;
  lang: Lang | null;
}

export interface Watch {
  type: "watch";
  table_id: number;
}

export interface Join {
  type: "join";
  table_id: number;
}

export interface Act {
  type: "act";
  table_id: number;
  version: number;
  notation: string;
}

export type ServerMessage = TablesMessage | TableState | Ack | Refusal | ErrorMessage;

export type ClientMessage = Hello | Watch | Join | Act;

/**
 * The page's words (`PageWords.words`): the keys the catalogs give it (`web.page.*` and
 * `protocol.DISCORD_WORDS`), so that the client names only words that exist.
 */
export type Word =
  | "back"
  | "cancel"
  | "cards"
  | "clear"
  | "close"
  | "computer"
  | "confirm"
  | "connecting"
  | "deal"
  | "dealer"
  | "demo_note"
  | "join"
  | "language"
  | "lobby_waiting"
  | "no_tables"
  | "open_in_discord"
  | "open_seat"
  | "pick_cards"
  | "pick_member"
  | "reconnecting"
  | "result"
  | "retry"
  | "seated"
  | "sheet"
  | "sign_in_failed"
  | "signing_in"
  | "spectator"
  | "status_ended"
  | "status_finished"
  | "status_lobby"
  | "status_paused"
  | "status_playing"
  | "table_ended"
  | "table_ended_note"
  | "tables"
  | "title"
  | "tricks"
  | "trump"
  | "waiting"
  | "watch"
  | "your_turn";
