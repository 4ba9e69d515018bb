// Memory (RULES.md §4.4): a face-up card and a grid of face-down cards,
// played in turns. On its turn a seat names a symbol of the face-up card
// (a click on it), then flips a face-down card (the page offers those it
// may flip); the card last flipped is shown beside the grid until the next.

import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { symbolName } from "../cards.js";
import { zoneOf, topCard, face, back, seatsBar, turnLine, enterKeys } from "../extra.js";

// cards lists the card flipped last (face down again), shown beside the
// grid.
export function cards(view) {
  const x = view.extra || {};
  return x.last && x.last.card >= 0 ? [x.last.card] : [];
}

// symbol names a symbol of the face-up card on the seat's turn, then asks
// which face-down card to flip.
export function symbol(ctx, zone, s) {
  const { view, me } = ctx;
  if (view.turn !== me || view.zones[zone].kind !== "centre") return;
  ctx.offer(flippable(view), { type: "flip", symbol: s });
}

// flippable lists the face-down places that may be flipped: those without
// a marker, or every one when all have one.
function flippable(view) {
  const marked = new Set((view.extra && view.extra.marked) || []);
  const all = zoneOf(view, "facedown").filter((z) => z.count > 0).map((z) => z.zone);
  const free = all.filter((z) => !marked.has(z));
  return free.length ? free : all;
}

// draw draws the seats, whose turn it is, the face-up card, the card
// flipped last and the grid of face-down cards.
export function draw(el, ctx) {
  const { view, me, deck } = ctx;
  const x = view.extra || {};
  const marked = new Set(x.marked || []);
  const mine = view.turn === me && !view.over;
  const up = zoneOf(view, "centre")[0];
  const choose = ctx.choose ? ctx.choose.zones : [];
  const places = zoneOf(view, "facedown").map((z) => {
    const ci = choose.indexOf(z.zone);
    const last = x.last && x.last.zone === z.zone;
    return h("div", {
      class: `xplace${ci >= 0 ? " choice" : ""}${last ? " last" : ""}${marked.has(z.zone) ? " marked" : ""}`,
      "data-zone": z.zone, "data-kind": z.kind, "data-count": z.count,
      "data-choice": ci >= 0 ? ci + 1 : null, tabindex: ci >= 0 ? 0 : null, role: ci >= 0 ? "button" : null,
      "aria-label": ci >= 0 ? t("extra.memory.flipThis", { n: ci + 1 }) : null,
    },
    z.count ? back("mid") : h("div", { class: "xcard mid empty", "aria-hidden": "true" }),
    marked.has(z.zone) ? h("span", { class: "marker", title: t("extra.memory.marker") }) : null);
  });
  let lastEl = null;
  if (x.last && x.last.card >= 0) {
    const l = x.last;
    lastEl = h("div", { class: "xlast", id: "last-flip" },
      face(ctx, l.card, "small", false),
      h("p", null, t(l.taken ? "extra.memory.taken" : "extra.memory.missed",
        { name: ctx.names(l.seat), symbol: symbolName(deck, l.symbol) })));
  }
  append(el,
    seatsBar(ctx, (s) => {
      const won = view.zones.find((z) => z.kind === "won" && z.seat === s);
      return h("span", { class: "badge" }, t("extra.memory.cards", { n: won ? won.count : 0 }));
    }),
    turnLine(ctx),
    h("p", { class: "xhint" }, mine ? (ctx.choose ? t("extra.memory.pickCard") : t("extra.memory.nameSymbol")) : t("extra.memory.watch")),
    h("div", { class: "xrow" },
      h("div", { class: "zone xup", "data-zone": up.zone, "data-kind": "centre" }, topCard(up) ? face(ctx, topCard(up).card, "big", mine) : back("big"),
        h("div", { class: "zlabel" }, t("extra.memory.faceUp"))),
      lastEl),
    h("div", { class: "xgrid", role: "group", "aria-label": t("extra.memory.grid") }, places));
}

// feed says what a flip found.
export function feed(e, f) {
  if (e.kind !== "flip" || e.seat < 0) return false;
  const taken = f.evs.some((x) => x.kind === "score" && x.seat === e.seat);
  f.line(taken ? "feed.flipTaken" : "feed.flipMissed", e.seat, { symbol: e.symbol });
  return true;
}

// keys: a symbol is named, then a card chosen.
export function keys() {
  return [["move", ["Tab", "←→"], "keys.move"], ["act", enterKeys(), "keys.name"], ["choose", ["1–9"], "keys.choose"], ["cancel", ["Esc"], "keys.cancel"]];
}
