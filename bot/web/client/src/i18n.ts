/**
 * The client's own few words, in Swedish and English. Everything about the game itself (phases,
 * bids, events, labels) comes from the server already in the member's language.
 */
import type { Lang } from "./protocol";

const sv = {
  title: "Kortbord",
  connecting: "Ansluter …",
  reconnecting: "Förbindelsen bröts, ansluter igen …",
  signing_in: "Loggar in med Discord …",
  sign_in_failed: "Inloggningen misslyckades",
  pick_member: "Vem spelar du?",
  demo_note: "Demo: välj en av de simulerade medlemmarna.",
  tables: "Borden i kanalen",
  no_tables: "Inga bord i kanalen än. Öppna ett med /spel ny.",
  watch: "Titta",
  open_seat: "Till din plats",
  join: "Gå med",
  back: "Alla bord",
  sheet: "Protokoll",
  close: "Stäng",
  result: "Resultat",
  your_turn: "Din tur",
  waiting: "Väntar på",
  computer: "dator",
  dealer: "giv",
  tricks: "stick",
  cards: "kort",
  confirm: "Bekräfta",
  pick_cards: "Välj kort",
  clear: "Rensa",
  spectator: "Du tittar på",
  trump: "Trumf",
  deal: "Giv",
  retry: "Försök igen",
  status_lobby: "väntar på spelare",
  status_playing: "pågår",
  status_finished: "slut",
  status_paused: "pausat",
  status_ended: "avslutat",
  language: "English",
  seated: "du sitter här",
  open_in_discord: "Öppna bordet från Discord: knappen Öppna bordet på bordets meddelande.",
};

const en: typeof sv = {
  title: "Kortbord",
  connecting: "Connecting …",
  reconnecting: "Connection lost, reconnecting …",
  signing_in: "Signing in with Discord …",
  sign_in_failed: "Signing in failed",
  pick_member: "Who are you playing as?",
  demo_note: "Demo: pick one of the simulated members.",
  tables: "Tables in this channel",
  no_tables: "No tables in this channel yet. Open one with /spel ny.",
  watch: "Watch",
  open_seat: "Go to your seat",
  join: "Join",
  back: "All tables",
  sheet: "Score sheet",
  close: "Close",
  result: "Result",
  your_turn: "Your turn",
  waiting: "Waiting for",
  computer: "computer",
  dealer: "dealer",
  tricks: "tricks",
  cards: "cards",
  confirm: "Confirm",
  pick_cards: "Pick cards",
  clear: "Clear",
  spectator: "You are watching",
  trump: "Trump",
  deal: "Deal",
  retry: "Try again",
  status_lobby: "waiting for players",
  status_playing: "playing",
  status_finished: "finished",
  status_paused: "paused",
  status_ended: "closed",
  language: "Svenska",
  seated: "your seat",
  open_in_discord: "Open the table from Discord: the Open the table button on the table's message.",
};

export type Word = keyof typeof sv;

const words: Record<Lang, typeof sv> = { sv, en };

let current: Lang = "sv";

export function setLang(lang: Lang): void {
  current = lang;
  document.documentElement.lang = lang;
}

export function lang(): Lang {
  return current;
}

export function t(word: Word): string {
  return words[current][word];
}

/** The language to ask for: the page's `lang` parameter, the last choice, else the browser's. */
export function preferredLang(params: URLSearchParams): Lang {
  const asked = params.get("lang") ?? safeStorage("kortbord.lang") ?? navigator.language;
  return asked.toLowerCase().startsWith("en") ? "en" : "sv";
}

export function rememberLang(lang: Lang): void {
  try {
    localStorage.setItem("kortbord.lang", lang);
  } catch {
    // Storage may be refused inside an iframe: the choice then lasts for this page only.
  }
}

function safeStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
