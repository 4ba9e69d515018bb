// The table: every zone of a rules.View drawn with the server's card faces,
// grouped by seat, and the choice of a claim's target derived from the
// zones and the game's Info.targets.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardElement, loadCards, loaded } from "./cards.js";
import { extraCards } from "./extra.js";

const HIDDEN_KINDS = new Set(["stock", "aside", "lost", "out"]);
const SMALL_KINDS = new Set(["won", "lost", "out", "stock", "aside"]);

// visibleCards lists every card number a view of deck shows: its zones'
// cards, and those an extra mini-game shows beside them (a card turned
// back face down, symbols shown alone).
export function visibleCards(view, deck) {
  const out = new Set();
  for (const z of view.zones) for (const c of z.cards) out.add(c.card);
  for (const c of extraCards(view, deck)) out.add(c);
  return [...out];
}

// ready reports whether every card the view shows is loaded.
export function ready(deck, view) {
  return loaded(deck, visibleCards(view, deck));
}

export function preload(deck, view) {
  return loadCards(deck, visibleCards(view, deck));
}

function top(z) {
  return z.cards.length ? z.cards[z.cards.length - 1] : null;
}

function topHas(z, symbol) {
  const c = top(z);
  return !!c && c.symbols.includes(symbol);
}

// slotZones are the shared face-up places of a game's centre: Triplets'
// grid, Catch Them All's ring, Subway Rescue's layout.
function slotZones(view) {
  return view.zones.filter((z) => z.seat < 0 && z.show === "all" && !["centre", "stock", "aside"].includes(z.kind));
}

// planClaim works out the target of a claim of symbol clicked in zone
// clicked. It returns {target} when the table leaves one sensible choice,
// or {choose, pick} when the player must choose a zone among choose (pick
// turns the chosen zone into the target). A symbol that matches nowhere
// still makes a claim (the server refuses it as not a match), so a miss is
// a miss as at the real table.
export function planClaim(view, info, me, symbol, clicked) {
  const n = info.targets || 0;
  const zone = (i) => view.zones[i];
  if (n === 0) return { target: [] };
  if (n === 3) {
    const slots = slotZones(view).filter((z) => z.count > 0);
    const match = slots.filter((z) => topHas(z, symbol)).map((z) => z.zone);
    let pick = match.slice(0, 3);
    if (match.includes(clicked) && !pick.includes(clicked)) pick = [clicked, ...match.filter((z) => z !== clicked).slice(0, 2)];
    for (const z of slots) if (pick.length < 3 && !pick.includes(z.zone)) pick.push(z.zone);
    return { target: pick.sort((a, b) => a - b) };
  }
  if (n === 1) {
    let cands = slotZones(view).filter((z) => z.count > 0);
    if (!cands.length) cands = view.zones.filter((z) => z.kind === "pile" && z.seat >= 0 && z.seat !== me && z.count > 0);
    const ids = cands.map((z) => z.zone);
    if (ids.includes(clicked)) return { target: [clicked] };
    const match = cands.filter((z) => topHas(z, symbol)).map((z) => z.zone);
    if (match.length === 1) return { target: match };
    if (match.length > 1) return { choose: match, pick: (z) => [z] };
    return ids.length ? { target: [ids[0]] } : { target: [] };
  }
  // Two targets (Anarchy Pancakes): one of my stacks, then the Common card
  // or another seat's stack.
  const own = view.zones.filter((z) => z.kind === "pile" && z.seat === me && z.count > 0);
  const others = view.zones.filter((z) => z.count > 0 && (z.kind === "centre" || (z.kind === "pile" && z.seat >= 0 && z.seat !== me)));
  const c = zone(clicked);
  if (c && own.some((z) => z.zone === clicked)) {
    const match = others.filter((z) => topHas(z, symbol)).map((z) => z.zone);
    if (match.length === 1) return { target: [clicked, match[0]] };
    if (match.length > 1) return { choose: match, pick: (z) => [clicked, z] };
    const common = others.find((z) => z.kind === "centre") || others[0];
    return { target: [clicked, common ? common.zone : clicked] };
  }
  const match = own.filter((z) => topHas(z, symbol)).map((z) => z.zone);
  if (match.length === 1) return { target: [match[0], clicked] };
  if (match.length > 1) return { choose: match, pick: (z) => [z, clicked], own: true };
  return { target: [own.length ? own[0].zone : clicked, clicked] };
}

// nearestSymbol returns the symbol of a card whose centre is nearest to a
// click that landed on the card between symbols (on a transparent part of
// a picture, say), if the click is within that symbol's own box.
function nearestSymbol(svg, x, y) {
  if (!svg) return null;
  let best = null;
  let bestD = Infinity;
  for (const g of svg.querySelectorAll("g[data-symbol]")) {
    const r = g.getBoundingClientRect();
    if (x < r.left || x > r.right || y < r.top || y > r.bottom) continue;
    const d = Math.hypot(x - (r.left + r.right) / 2, y - (r.top + r.bottom) / 2);
    if (d < bestD) { bestD = d; best = g; }
  }
  return best;
}

// shownCards are the cards of a zone drawn face up: all of them, or the
// top one.
function shownCards(z) {
  return z.show === "all" ? z.cards : z.cards.slice(-1);
}

function zoneLabel(z) {
  switch (z.kind) {
    case "centre": return t("play.centre");
    case "stock": return t("play.stock");
    case "aside": return t("play.aside");
    case "won": return t("play.won");
    case "lost": return t("play.lost");
    case "out": return t("play.out");
    case "discard": return t("play.discard");
    default: return "";
  }
}

// scoreText is a seat's score as its header says it: "3 cards", "1 card",
// or, for a penalty, "Penalty: 3 cards".
function scoreText(sc, unit, penalty) {
  const text = sc === 1 && unit === "cards" ? t("play.count1") : t("play.score", { score: sc, unit: t(`unit.${unit}`) });
  return penalty ? t("play.penaltyScore", { score: text }) : text;
}

// Table draws views into one element, keeping each zone's element while
// its cards stay the same, so that focus and animations survive updates.
export class Table {
  constructor(root, { deck, interactive, onSymbol, onZone }) {
    this.root = root;
    this.deck = deck;
    this.interactive = interactive;
    this.onSymbol = onSymbol;
    this.onZone = onZone;
    this.zoneEls = new Map();
    this.el = h("div", { class: "table", "data-deck": deck });
    root.replaceChildren(this.el);
    this.el.addEventListener("click", (e) => this.click(e));
  }

  // reset forgets the drawn zones, so that the next draw rebuilds them
  // (after a change of language).
  reset() { this.zoneEls.clear(); }

  click(e) {
    const zoneEl = e.target.closest("[data-zone]");
    if (!zoneEl) return;
    const zone = Number(zoneEl.dataset.zone);
    if (zoneEl.classList.contains("choice")) {
      e.preventDefault();
      this.onZone && this.onZone(zone);
      return;
    }
    const g = e.target.closest("g[data-symbol]") || nearestSymbol(e.target.closest("svg.face"), e.clientX, e.clientY);
    if (g && this.interactive && this.onSymbol) {
      if (g.dataset.longpress === "1") { delete g.dataset.longpress; return; }
      this.onSymbol(zone, Number(g.getAttribute("data-symbol")), g);
    }
  }

  // draw shows view; me is the viewer's game seat (-1 for a spectator),
  // names maps game seats to names, choose lists the zones offered as a
  // target choice, fresh the zones that just received cards.
  draw(view, { me, names, scores, unit, locked, choose = [], fresh = new Set(), winner = -1 }) {
    // Hot Potato scores the penalty cards of the rounds lost, not the
    // cards held: its header says so.
    const penalty = view.game === "hot-potato" && !!scores;
    const seats = [];
    for (let s = 0; s < view.players; s++) seats.push(s);
    const others = seats.filter((s) => s !== me);
    const keep = new Set();
    const zonesOf = (seat) => view.zones.filter((z) => z.seat === seat);
    const many = (seat) => zonesOf(seat).filter((z) => z.kind === "pile").length > 2;
    const seatPanel = (s, mine) => {
      const pileCount = zonesOf(s).filter((z) => z.kind === "pile").reduce((a, z) => a + z.count, 0);
      const sc = scores ? scores[s] : pileCount;
      const tally = view.seats && view.seats[s] ? view.seats[s].tally : 0;
      return h("section", {
        class: `seat${mine ? " mine" : ""}${s === winner ? " winner" : ""}${many(s) ? " many" : ""}`,
        "data-seat": s,
        "aria-label": names(s),
      },
      h("header", null,
        h("span", { class: "name", title: names(s) }, names(s)),
        mine ? h("span", { class: "you" }, ` (${t("play.you")})`) : null,
        h("span", { class: "score", "data-score": sc }, scoreText(sc, unit, penalty)),
        tally && tally !== sc ? h("span", { class: "tally" }, `★${tally}`) : null,
        mine && locked ? h("span", { class: "locked" }, t("play.locked")) : null),
      h("div", { class: "zones" }, zonesOf(s).map((z) => this.zone(z, mine ? "mine" : "other", keep, choose, fresh, many(s)))));
    };
    const shared = view.zones.filter((z) => z.seat < 0);
    const sharedMany = slotZones(view).length > 0;
    const parts = [
      h("div", { class: "others" }, others.map((s) => seatPanel(s, false))),
      h("div", { class: `shared${sharedMany ? " grid" : ""}` }, shared.map((z) => this.zone(z, "shared", keep, choose, fresh, false))),
      me >= 0 ? seatPanel(me, true) : null,
    ];
    const active = document.activeElement;
    const focusKey = active && active.closest && active.closest("[data-zone]") && active.matches("g[data-symbol]")
      ? [active.closest("[data-zone]").dataset.zone, active.getAttribute("data-symbol")] : null;
    this.el.replaceChildren(...parts.filter(Boolean));
    this.el.dataset.version = String(view.version);
    for (const k of [...this.zoneEls.keys()]) if (!keep.has(k)) this.zoneEls.delete(k);
    if (focusKey) {
      const g = this.el.querySelector(`[data-zone="${focusKey[0]}"] g[data-symbol="${focusKey[1]}"]`);
      if (g) g.focus({ preventScroll: true });
    }
  }

  zone(z, where, keep, choose, fresh, many) {
    keep.add(z.zone);
    const size = SMALL_KINDS.has(z.kind) ? "small" : where === "other" || many ? "mid" : "big";
    const key = `${z.count}|${z.cards.map((c) => c.card).join(",")}|${size}`;
    let rec = this.zoneEls.get(z.zone);
    // A zone drawn while a picture was still loading is drawn again once
    // it is there, even if its cards are the same.
    if (!rec || rec.key !== key || (rec.el.querySelector(".loading") && loaded(this.deck, shownCards(z).map((c) => c.card)))) {
      rec = { key, el: this.buildZone(z, size, where) };
      this.zoneEls.set(z.zone, rec);
    }
    const el = rec.el;
    const ci = choose.indexOf(z.zone);
    el.classList.toggle("choice", ci >= 0);
    el.classList.toggle("fresh", fresh.has(z.zone));
    if (ci >= 0) el.dataset.choice = String(ci + 1);
    else delete el.dataset.choice;
    el.hidden = !z.count && (z.kind === "aside" || z.kind === "lost" || z.kind === "out" || (z.kind === "pile" && many));
    return el;
  }

  buildZone(z, size, where) {
    const label = zoneLabel(z);
    const cards = [];
    if (z.cards.length) {
      for (const c of shownCards(z)) {
        const svg = cardElement(this.deck, c.card, { interactive: this.interactive && size !== "small" });
        cards.push(h("div", { class: "card" }, svg || h("div", { class: "loading" })));
      }
    } else if (z.count > 0) {
      cards.push(h("div", { class: "card back", "aria-hidden": "true" }));
    } else {
      cards.push(h("div", { class: "card empty", "aria-hidden": "true" }));
    }
    return h("div", {
      class: `zone ${size} kind-${z.kind}${HIDDEN_KINDS.has(z.kind) ? " hidden-cards" : ""}`,
      "data-zone": z.zone, "data-kind": z.kind, "data-count": z.count,
    },
    cards,
    h("div", { class: "zlabel" }, label ? `${label} · ` : "", z.count === 1 ? t("play.count1") : t("play.count", { n: z.count })));
  }
}
