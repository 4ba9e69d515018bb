// Collect the Symbols (RULES.md §4.6): played on the common table, where a
// claim names a symbol of the seat's own top card whose token is still in
// the centre. Above the table: the tokens left, and the seat's discard, or,
// its pile empty, the discard piles it may take over.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { chip, singles } from "../extra.js";

// cards lists the tokens' one-symbol cards.
export function cards(view, deck) {
  return singles(deck, (view.extra && view.extra.tokens) || []);
}

export function panel(ctx) {
  const { view, me, deck } = ctx;
  const x = view.extra || {};
  const tokens = x.tokens || [];
  const pile = view.zones.find((z) => z.kind === "pile" && z.seat === me);
  const controls = [];
  if (me >= 0 && !view.over && pile) {
    if (pile.count > 0) {
      controls.push(h("button", { id: "discard", onclick: () => ctx.act("discard", {}) }, t("extra.collect.discard")));
    } else {
      for (const z of view.zones) {
        if (z.kind === "discard" && z.seat !== me && z.count > 0) {
          controls.push(h("button", { id: `take-${z.zone}`, class: "primary", onclick: () => ctx.act("take", { target: [z.zone] }) },
            t("extra.collect.take", { name: ctx.names(z.seat), n: z.count })));
        }
      }
    }
  }
  return h("div", { class: "xcollect" },
    h("p", { class: "xhint" }, t("extra.collect.tokens", { n: tokens.length })),
    h("div", { class: "xpalette tokens", id: "tokens" }, tokens.map((s) => chip(deck, s, { cls: "token" }))),
    controls.length ? h("div", { class: "row actions" }, controls) : null);
}

// feed says who discarded and who took over a discard pile (turned over
// card by card: one line for it).
export function feed(e, f) {
  if (e.kind !== "move" || e.seat < 0 || f.evs.some((x) => x.kind === "claim")) return false;
  const z = f.view.zones[e.from];
  if (z && z.kind === "discard") {
    if (e === f.evs.find((x) => x.kind === "move")) f.line("feed.take", e.seat, { n: f.evs.length, owner: f.sessionSeat(z.seat) });
  } else f.line("feed.discard", e.seat);
  return true;
}
