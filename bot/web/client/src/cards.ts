/**
 * Cards drawn by the client from their notation codes (`QS`, `TH`, `JK`): a face with the rank's
 * index in the member's language (Swedish decks print Kn, D, K, E) and the suit as an SVG shape,
 * or a back. No card art is loaded: Discord's CSP allows nothing outside the page's own files.
 * The indices, the suits' names, the joker's words and the four-colour deck's colours are the
 * server's (the page's catalog, i18n.ts), the same as every other face shows.
 */
import { catalog, words } from "./i18n";

const SVG = "http://www.w3.org/2000/svg";

/** Suit shapes on a 100×100 box. */
const SUIT_PATHS: Record<string, string> = {
  H: "M50 92C18 66 4 48 6 30C8 14 22 6 34 8C42 9 48 15 50 22C52 15 58 9 66 8C78 6 92 14 94 30C96 48 82 66 50 92Z",
  D: "M50 4L88 50L50 96L12 50Z",
  S:
    "M50 4C34 24 8 40 8 60C8 74 20 82 32 80C40 79 45 74 47 68C46 80 40 88 30 95L70 95" +
    "C60 88 54 80 53 68C55 74 60 79 68 80C80 82 92 74 92 60C92 40 66 24 50 4Z",
  C:
    "M50 6A20 20 0 0 1 66 38A20 20 0 1 1 54 70C55 80 60 88 70 95L30 95C40 88 45 80 46 70" +
    "A20 20 0 1 1 34 38A20 20 0 0 1 50 6Z",
};

/** The four-colour deck's colour of a suit, by its name: a class of the card or symbol, whose
 * shade is the CSS variable `--ink-<name>` (set by `paintDeck`). */
function inkOf(suit: string): string {
  return catalog?.colours[suit]?.ink ?? "black";
}

/** Sets the deck's shades (`--ink-red`, …) on the page, from the catalog. */
export function paintDeck(): void {
  for (const colour of Object.values(catalog?.colours ?? {})) {
    document.documentElement.style.setProperty(`--ink-${colour.ink}`, colour.css);
  }
}

export function rankIndex(code: string): string {
  const rank = code.charAt(0);
  return words()?.ranks[rank] ?? rank;
}

export function suitOf(code: string): string {
  return code === "JK" ? "" : code.charAt(1);
}

export function suitIcon(suit: string, className = "suit"): SVGSVGElement {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", `${className} ${inkOf(suit)}`);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", SUIT_PATHS[suit] ?? "");
  svg.append(path);
  return svg;
}

/** A face-up card; `data-card` holds its code (the tests read it). */
export function cardFace(code: string, size: "big" | "small" = "big"): HTMLElement {
  const card = document.createElement("div");
  card.className = `card face ${size}`;
  card.dataset.card = code;
  const suit = suitOf(code);
  card.classList.add(inkOf(suit));
  if (code === "JK") {
    card.classList.add("joker");
    const word = document.createElement("span");
    word.className = "joker-word";
    word.textContent = words()?.joker ?? "JK";
    card.append(word);
    card.setAttribute("aria-label", words()?.joker_name ?? "JK");
    return card;
  }
  const index = document.createElement("span");
  index.className = "index";
  index.textContent = rankIndex(code);
  index.append(suitIcon(suit, "pip"));
  const middle = suitIcon(suit, "middle");
  card.append(index, middle);
  card.setAttribute("aria-label", `${rankIndex(code)} ${suitName(suit)}`);
  return card;
}

/** A face-down card: nothing about it is in the page. */
export function cardBack(size: "big" | "small" | "tiny" = "small"): HTMLElement {
  const card = document.createElement("div");
  card.className = `card back ${size}`;
  return card;
}

export function suitName(suit: string): string {
  return words()?.suits[suit] ?? suit;
}
