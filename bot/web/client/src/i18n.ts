/**
 * The page's words, in Swedish and English: from the server's catalogs, served in the page itself
 * (`PageCatalog` in a JSON block, built by bot/web/protocol.py's `page_catalog`), as are the
 * card indices, the suits' names and the deck's colours (cards.ts). The client keeps no copy of
 * any of them. Everything about the game itself (phases, bids, events, labels) comes in the
 * state, already in the member's language.
 */
import type { Lang, PageCatalog, PageWords, Word } from "./protocol";

export type { Word };

function served(): PageCatalog | null {
  const text = document.getElementById("kortbord-catalog")?.textContent;
  try {
    return text ? (JSON.parse(text) as PageCatalog) : null;
  } catch {
    return null;
  }
}

/** The catalog the server put in the page (null only for a page it did not serve). */
export const catalog: PageCatalog | null = served();

let current: Lang = "sv";

export function setLang(lang: Lang): void {
  current = lang;
  document.documentElement.lang = lang;
}

export function lang(): Lang {
  return current;
}

/** The page's words, the card indices and the suits' names in the current language. */
export function words(): PageWords | null {
  return catalog?.langs[current] ?? null;
}

export function t(word: Word): string {
  return words()?.words[word] ?? word;
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
