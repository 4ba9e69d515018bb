// Card faces from the server (GET /api/cards/{deck}/{card}.svg: the same
// layout and art as the printed cards) and symbol names in every language
// (GET /api/decks/{deck}). Each symbol of a card is a <g data-symbol=ID>
// group, made focusable and named here in the chosen language.

import { lang } from "./i18n.js";

const svgs = new Map(); // url → Promise<SVGSVGElement> (a template to clone)
const ready = new Map(); // url → SVGSVGElement, once loaded
const decks = new Map(); // deck → Promise<deck info or null>

export function cardURL(deck, card) {
  return `/api/cards/${encodeURIComponent(deck)}/${card}.svg`;
}

function loadSVG(url) {
  let p = svgs.get(url);
  if (!p) {
    p = fetch(url).then(async (r) => {
      if (!r.ok) throw new Error(`${url}: ${r.status}`);
      const doc = new DOMParser().parseFromString(await r.text(), "image/svg+xml");
      const svg = doc.documentElement;
      if (svg.nodeName !== "svg") throw new Error(`${url}: not an SVG`);
      const el = document.importNode(svg, true);
      ready.set(url, el);
      return el;
    });
    p.catch(() => svgs.delete(url));
    svgs.set(url, p);
  }
  return p;
}

// loadCards fetches every card face not yet cached.
export function loadCards(deck, cards) {
  return Promise.all(cards.map((c) => loadSVG(cardURL(deck, c))));
}

// loaded reports whether every card face is cached.
export function loaded(deck, cards) {
  return cards.every((c) => ready.has(cardURL(deck, c)));
}

// loadDeck fetches the deck's symbol names; it resolves to null when the
// server has none, and the names then come from the cards' titles.
export function loadDeck(deck) {
  let p = decks.get(deck);
  if (!p) {
    p = fetch(`/api/decks/${encodeURIComponent(deck)}`)
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null);
    decks.set(deck, p);
  }
  return p;
}

const titles = new Map(); // deck → Map(symbol id → name in the cards' titles)

let deckInfo = new Map(); // deck → resolved deck info

export async function useDeck(deck) {
  deckInfo.set(deck, await loadDeck(deck));
}

// singleCard returns the number of the card showing symbol id of deck
// alone (the server draws one per symbol after the deck's own cards), or
// -1 while the deck's description has not loaded.
export function singleCard(deck, id) {
  const info = deckInfo.get(deck);
  return info && typeof info.cards === "number" ? info.cards + id : -1;
}

// deckSymbols returns the number of symbols of deck, or 0 while its
// description has not loaded.
export function deckSymbols(deck) {
  const info = deckInfo.get(deck);
  return info && info.symbols ? info.symbols.length : 0;
}

// symbolName returns the name of symbol id of deck in the chosen language.
export function symbolName(deck, id) {
  const info = deckInfo.get(deck);
  const s = info && info.symbols && info.symbols[id];
  if (s && s.names) return s.names[lang()] || s.names.en || s.key || String(id);
  const tm = titles.get(deck);
  return (tm && tm.get(id)) || `#${id}`;
}

// cardSymbols returns the symbols on a card of deck, as its loaded face
// shows them, or null when the face is not loaded.
export function cardSymbols(deck, card) {
  const svg = ready.get(cardURL(deck, card));
  return svg ? [...svg.querySelectorAll("g[data-symbol]")].map((g) => Number(g.getAttribute("data-symbol"))) : null;
}

// cardElement returns a fresh copy of a cached card face with its symbols
// focusable and named, or null when it is not loaded yet.
export function cardElement(deck, card, { interactive }) {
  const tpl = ready.get(cardURL(deck, card));
  if (!tpl) return null;
  const svg = tpl.cloneNode(true);
  svg.classList.add("face");
  svg.setAttribute("data-card", card);
  let tm = titles.get(deck);
  if (!tm) titles.set(deck, (tm = new Map()));
  for (const g of svg.querySelectorAll("g[data-symbol]")) {
    const id = Number(g.getAttribute("data-symbol"));
    let title = g.querySelector(":scope > title");
    if (title && !tm.has(id)) tm.set(id, title.textContent);
    const name = symbolName(deck, id);
    if (!title) {
      title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      g.prepend(title);
    }
    title.textContent = name;
    g.classList.add("sym");
    g.setAttribute("aria-label", name);
    if (interactive) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
    }
  }
  return svg;
}

// rename puts the names of the chosen language on every card shown.
export function rename(root) {
  for (const svg of root.querySelectorAll("svg.face")) {
    const deck = svg.closest("[data-deck]")?.getAttribute("data-deck");
    if (!deck) continue;
    for (const g of svg.querySelectorAll("g[data-symbol]")) {
      const name = symbolName(deck, Number(g.getAttribute("data-symbol")));
      g.setAttribute("aria-label", name);
      const title = g.querySelector(":scope > title");
      if (title) title.textContent = name;
    }
  }
}
