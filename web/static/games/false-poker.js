// False Poker (RULES.md §4.5): in turns, a seat lays a card of its hand at
// the end of the row with one of its markers, or says STOP (the button, or
// the S key) when two pairs of neighbours share the same symbol.

import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { zoneOf, topCard, face, seatsBar, turnLine, COLOURS, enterKeys } from "../extra.js";

// symbol lays the card of the hand the symbol is on.
export function symbol(ctx, zone) {
  const z = ctx.view.zones[zone];
  if (z.kind === "hand" && z.seat === ctx.me) ctx.act("lay", { target: [zone] });
}

// draw draws the seats with their markers left, whose turn it is, the row
// with who laid each card, STOP and the seat's hand.
export function draw(el, ctx) {
  const { view, me } = ctx;
  const x = view.extra || {};
  const row = zoneOf(view, "row")[0];
  const layers = x.layers || [];
  const mine = view.turn === me && !view.over;
  const free = (x.free || [])[me] || 0;
  const hand = view.zones.filter((z) => z.kind === "hand" && z.seat === me);
  const rowEl = h("ol", { class: "xrowcards", id: "row", "data-zone": row.zone, "data-kind": "row", "aria-label": t("extra.poker.row", { n: row.cards.length }) },
    row.cards.map((c, i) => h("li", { style: layers[i] >= 0 ? `--seat: ${COLOURS[layers[i] % COLOURS.length]}` : null },
      face(ctx, c.card, "small", false),
      layers[i] >= 0 ? h("span", { class: "marker", title: t("extra.poker.laidBy", { name: ctx.names(layers[i]) }) }) : null)));
  const handEl = me >= 0 ? h("div", { class: "xhand", id: "hand", role: "group", "aria-label": t("extra.poker.hand") },
    hand.map((z) => {
      const c = topCard(z);
      if (!c) return null;
      const body = face(ctx, c.card, "mid", false);
      return mine && free > 0
        ? h("button", { type: "button", class: "handcard", id: `lay-${z.zone}`, "data-zone": z.zone, "aria-label": t("extra.poker.lay"), onclick: () => ctx.act("lay", { target: [z.zone] }) }, body)
        : h("div", { class: "handcard", "data-zone": z.zone }, body);
    })) : null;
  append(el,
    seatsBar(ctx, (s) => [
      h("span", { class: "badge", style: `--seat: ${COLOURS[s % COLOURS.length]}` }, t("extra.poker.free", { n: (x.free || [])[s] ?? 0 })),
      (x.out || []).includes(s) ? h("span", { class: "badge off" }, t("extra.out")) : null,
    ]),
    turnLine(ctx),
    h("p", { class: "xhint" }, mine ? (free > 0 ? t("extra.poker.yourMove") : t("extra.poker.noMarker")) : t("extra.poker.check")),
    rowEl,
    mine ? h("div", { class: "row actions" }, h("button", { id: "stop", class: "primary stop", "aria-keyshortcuts": "S", onclick: () => ctx.act("stop", {}) }, t("extra.poker.stop"))) : null,
    handEl);
}

// feed says who laid a card, said STOP, ran out of time and lost markers.
export function feed(e, f) {
  switch (e.kind) {
    case "move":
      if (e.seat < 0 || f.evs.some((x) => x.kind === "claim") || f.view.zones[e.to]?.kind !== "row") return false;
      f.line("feed.lay", e.seat);
      return true;
    case "stop":
      f.line("feed.stop", e.seat);
      return true;
    case "out":
      f.line("feed.outOfTime", e.seat);
      return true;
    case "score":
      f.line("feed.markers", e.seat, { n: -e.count });
      return true;
    default:
      return false;
  }
}

// keys: the hand's cards are buttons, reached with Tab; S says STOP.
export function keys() {
  return [["move", ["Tab"], "keys.moveCards"], ["act", enterKeys(), "keys.lay"], ["stop", ["S"], "keys.stop"]];
}

// letters: S presses the STOP button, shown on the seat's turn.
export const letters = { s: () => document.getElementById("stop")?.click() };
