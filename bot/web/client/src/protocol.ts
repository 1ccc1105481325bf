/**
 * The web table's protocol as the client reads it: the JSON the bot's web server sends and
 * accepts (the server's `bot/web/protocol.py` docstring is the source of truth). Types only: the
 * client never decides what is legal or secret, it draws what the server sends.
 */

export type Lang = "sv" | "en";

export interface Member {
  id: string;
  name: string;
}

export interface Config {
  client_id: string;
  demo: boolean;
  members?: Member[];
}

export interface TokenAnswer {
  access_token: string;
  session: string;
  user: Member;
}

export interface LoginAnswer {
  session: string;
  user: Member;
}

export interface TableEntry {
  table_id: number;
  game: string;
  game_name: string;
  status: "lobby" | "playing" | "paused" | "finished" | "ended";
  players: string[];
  seated: boolean;
  can_join: boolean;
}

export interface SeatState {
  name: string;
  cards: number;
  /** Null in the lobby and in a game without points; its words are in `score_text`. */
  score: number | null;
  /** The score as the channel words it (`12 p`, `2 ritor`); null where nothing is counted. */
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
  /** One per card of the trick: what the game notes on it (played from a träkarl), or null. */
  trick_notes: (string | null)[];
  /** The card a joker counts as now, and the same in words. */
  joker: string | null;
  joker_text: string | null;
  piles: PileState[];
  events: string[];
  notes: string[];
  teams: number[][];
  sheet: Sheet | null;
}

export interface ActionState {
  notation: string;
  label: string;
  verb: string;
  cards: string[];
  help: string | null;
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

export interface TableState {
  type: "state";
  table_id: number;
  version: number;
  status: TableEntry["status"];
  seat: number | null;
  lang: Lang;
  game: string;
  game_name: string;
  /** The server's clock when the frame was made: deadlines count down from `deadline - now`. */
  now: number;
  deadline: number | null;
  reaction: { opened: number; closes: number } | null;
  view: ViewState;
  actions: ActionState[];
  result: ResultState | null;
}

export type ServerMessage =
  | { type: "tables"; tables: TableEntry[] }
  | TableState
  | { type: "ack"; version: number }
  | { type: "refused"; code: string; message: string }
  | { type: "error"; code: string; message: string };

export type ClientMessage =
  | {
      type: "hello";
      session: string;
      channel_id: string | null;
      table_id: number | null;
      lang: Lang | null;
    }
  | { type: "watch"; table_id: number }
  | { type: "join"; table_id: number }
  | { type: "act"; table_id: number; version: number; notation: string };
