// The table: every zone of a rules.View drawn with the server's card faces,
// grouped by seat, and a claim's targets worked out from the zones and the
// claim the game declares (Info.claim: which zones each target may be,
// which must show the symbol), so that any game of claims plays here.

import { h } from "./dom.js";
import { t, fill, unitName } from "./i18n.js";
import { cardElement, loadCards, loaded } from "./cards.js";
import { gameModule } from "./games.js";
import { hitSymbol } from "./fit.js";

const HIDDEN_KINDS = new Set(["stock", "aside", "lost", "out"]);
const SMALL_KINDS = new Set(["won", "lost", "out", "stock", "aside"]);

// visibleCards lists every card number a view of deck shows: its zones'
// cards, and those the game's module shows beside them (a card turned
// back face down, symbols shown alone).
export function visibleCards(view, deck) {
  const out = new Set();
  for (const z of view.zones) for (const c of z.cards) out.add(c.card);
  const mod = gameModule(view.game);
  if (mod && mod.cards) for (const c of mod.cards(view, deck)) out.add(c);
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

// holds reports whether zone z is one of place p's zones (a place of a
// declared claim: kinds and whose) for seat me, as rules.Place.Holds.
function holds(p, z, me) {
  if (!p.kinds.includes(z.kind)) return false;
  switch (p.whose) {
    case "mine": return z.seat === me && me >= 0;
    case "others": return z.seat >= 0 && z.seat !== me;
    case "shared": return z.seat < 0;
    case "notMine": return z.seat !== me || me < 0;
    default: return true;
  }
}

// shows reports whether zone z shows symbol as place p asks: on every
// card shown (p.every), or on its top card.
function shows(p, z, symbol) {
  if (p.every) return z.cards.length > 0 && shownCards(z).every((c) => c.symbols.includes(symbol));
  const c = top(z);
  return !!c && c.symbols.includes(symbol);
}

// claimPlaces are the places of a game's declared claim: those whose cards
// must show the symbol, then its targets.
function claimPlaces(info) {
  const c = info.claim || {};
  return [...(c.match || []), ...(c.targets || [])];
}

// asksTarget reports whether a claim of the game may ask the player which
// card is meant: it names targets that play different parts.
export function asksTarget(info) {
  const c = info.claim || {};
  return (c.targets || []).length > 0 && !c.ascending;
}

// offClaim returns the key of the text that says why a click on a symbol
// of zone names nothing, or "" when it makes a claim: where every card of
// the game's claim is the seat's own, a symbol elsewhere names nothing.
export function offClaim(view, info, me, zone) {
  const places = claimPlaces(info);
  const z = view.zones[zone];
  if (!places.length || !places.every((p) => p.whose === "mine")) return "";
  return z && places.some((p) => holds(p, z, me)) ? "" : "play.ownCard";
}

// claimShows reports whether a claim of symbol clicked in zone would match
// on view as the game declares it: the symbol is on the clicked card, on a
// card of each place that must show it and on each target's card (or,
// where the player must choose a target, on some card offered).
export function claimShows(view, info, me, symbol, zone) {
  const c = info.claim || {};
  if (!view.zones[zone] || !shows({}, view.zones[zone], symbol)) return false;
  for (const p of c.match || []) {
    if (!view.zones.some((z) => holds(p, z, me) && shows(p, z, symbol))) return false;
  }
  if (!(c.targets || []).length) return true;
  const plan = planClaim(view, info, me, symbol, zone);
  if (plan.choose) return plan.choose.length > 0;
  return plan.target.length > 0 && plan.target.every((t, i) => shows(c.ascending ? {} : c.targets[i], view.zones[t], symbol));
}

// planClaim works out the targets of a claim of symbol clicked in zone
// clicked from the claim the game declares (info.claim.targets: the kinds
// and owner of each target's zone). The clicked card is the first target
// it can be; each other target is the one card of its place that shows the
// symbol. It returns {target} when that leaves one sensible choice, or
// {choose, pick, own} when several cards of a place show it and the player
// must choose one among choose: pick(zone) then plans the claim again with
// that target, returning {target} or the next choice; own says the choice
// is among the seat's own stacks. Targets that play the same part
// (info.claim.ascending: three cards of a grid, say) never ask: any cards
// showing the symbol will do, given in increasing order. A symbol that
// matches nowhere still makes a claim (the server refuses it as not a
// match), so a miss is a miss as at the real table; where no card at all
// can be a target, the claim names none. fixed holds the targets already
// chosen, by index.
export function planClaim(view, info, me, symbol, clicked, fixed = []) {
  const shape = info.claim || {};
  const places = shape.targets || [];
  if (!places.length) return { target: [] };
  // Each place's zones with a card, in the order of the place's kinds
  // (a centre card before the other seats' stacks), then of
  // the table.
  const cands = places.map((p) => view.zones.filter((z) => z.count > 0 && holds(p, z, me))
    .sort((a, b) => p.kinds.indexOf(a.kind) - p.kinds.indexOf(b.kind) || a.zone - b.zone));
  const target = places.map((_, i) => fixed[i]);
  const used = new Set(fixed.filter((z) => z !== undefined));
  if (!used.has(clicked)) {
    const i = places.findIndex((_, k) => target[k] === undefined && cands[k].some((z) => z.zone === clicked));
    if (i >= 0) {
      target[i] = clicked;
      used.add(clicked);
    }
  }
  for (let i = 0; i < places.length; i++) {
    if (target[i] !== undefined) continue;
    const free = cands[i].filter((z) => !used.has(z.zone));
    const match = free.filter((z) => shows(places[i], z, symbol));
    if (match.length > 1 && !shape.ascending) {
      return {
        choose: match.map((z) => z.zone),
        pick: (z) => planClaim(view, info, me, symbol, clicked, target.map((x, k) => (k === i ? z : x))),
        own: places[i].whose === "mine",
      };
    }
    const pick = match[0] || free[0];
    // No card can be this target: there is no claim to make.
    if (!pick) return { target: [] };
    target[i] = pick.zone;
    used.add(target[i]);
  }
  if (shape.ascending) target.sort((a, b) => a - b);
  return { target };
}

// slotZones are the shared face-up places of a game's centre besides the
// centre pile: a grid, a ring, a layout.
function slotZones(view) {
  return view.zones.filter((z) => z.seat < 0 && z.show === "all" && !["centre", "stock", "aside"].includes(z.kind));
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
// or, with the game's own score line (label, e.g. "Penalty: {score}"),
// "Penalty: 3 cards".
function scoreText(sc, unit, label) {
  const text = sc === 1 && unit === "cards" ? t("play.count1") : t("play.score", { score: sc, unit: unitName(unit) });
  return label ? fill(label, { score: text }) : text;
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
    const g = e.target.closest("g[data-symbol]") || hitSymbol(e.target) || nearestSymbol(e.target.closest("svg.face"), e.clientX, e.clientY);
    if (g && this.interactive && this.onSymbol) {
      if (g.dataset.longpress === "1") { delete g.dataset.longpress; return; }
      this.onSymbol(zone, Number(g.getAttribute("data-symbol")), g);
    }
  }

  // draw shows view; me is the viewer's game seat (-1 for a spectator),
  // names maps game seats to names, choose lists the zones offered as a
  // target choice, fresh the zones that just received cards; scoreLine,
  // the game's own way of showing a score ("Penalty: {score}", where the
  // score counts something other than the cards held), applies to the
  // scores given.
  draw(view, { me, names, scores, unit, locked, choose = [], fresh = new Set(), winner = -1, scoreLine = "" }) {
    const label = scores ? scoreLine : "";
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
        class: `seat${mine ? " mine" : ""}${s === winner ? " winner" : ""}${many(s) ? " many" : ""}${scoreLine ? " labelled" : ""}`,
        "data-seat": s,
        "aria-label": names(s),
      },
      h("header", null,
        h("span", { class: "name", title: names(s) }, names(s)),
        mine ? h("span", { class: "you" }, ` (${t("play.you")})`) : null,
        h("span", { class: "score", "data-score": sc }, scoreText(sc, unit, label)),
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
