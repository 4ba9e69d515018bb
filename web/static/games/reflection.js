// Reflection (RULES.md §4.2): everyone looks at the fifth card, studies the
// four others on a clock, then writes from memory the symbol the fifth
// shares with each of the four, from a palette of the fifth card's symbols
// (or a click on the fifth card itself).

import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { symbolName } from "../cards.js";
import { zoneOf, topCard, chip, face, back, seatsBar, clock, singles, enterKeys } from "../extra.js";

// cards lists the one-symbol cards of the palette and of the last round's
// shared symbols.
export function cards(view, deck) {
  const x = view.extra || {};
  const fifth = topCard(zoneOf(view, "centre")[0]);
  return [...(fifth ? singles(deck, fifth.symbols) : []), ...singles(deck, x.last ? x.last.shared || [] : [])];
}

// symbol writes a symbol of the fifth card while answers are written.
export function symbol(ctx, zone, s) {
  const x = ctx.view.extra || {};
  if (x.phase === "answer" && ctx.view.zones[zone].kind === "centre" && (x.answers || []).length < 4) ctx.act("write", { symbol: s });
}

// draw draws the seats, the phase and its clock, the four cards (face up
// while studied) and the fifth, the answer sheet, the palette and the
// last round's outcome.
export function draw(el, ctx) {
  const { view, me, deck } = ctx;
  const x = view.extra || {};
  const phase = x.phase || "look";
  const answers = x.answers || [];
  const fifthZ = zoneOf(view, "centre")[0];
  const fifth = topCard(fifthZ);
  const study = zoneOf(view, "study");
  const down = zoneOf(view, "facedown").filter((z) => z.zone !== fifthZ.zone - 1);
  const writing = phase === "answer" && me >= 0 && answers.length < 4 && !view.over;
  const four = phase === "study"
    ? study.map((z) => h("div", { class: "zone", "data-zone": z.zone, "data-kind": z.kind }, topCard(z) ? face(ctx, topCard(z).card, "mid", false) : back("mid")))
    : down.map((z) => h("div", { class: "zone", "data-zone": z.zone, "data-kind": z.kind }, back("mid")));
  const fifthEl = fifth
    ? h("div", { class: "zone xfifth", "data-zone": fifthZ.zone, "data-kind": "centre" }, face(ctx, fifth.card, "big", writing), h("div", { class: "zlabel" }, t("extra.reflection.fifth")))
    : h("div", { class: "zone xfifth" }, back("big"), h("div", { class: "zlabel" }, t("extra.reflection.fifth")));
  const sheet = h("div", { class: "xsheet", id: "answers", "aria-label": t("extra.reflection.sheet") },
    h("span", null, t("extra.reflection.yours", { n: answers.length })),
    [0, 1, 2, 3].map((i) => (answers[i] !== undefined ? chip(deck, answers[i], { cls: "answer" }) : h("span", { class: "chip blank" }, "?"))));
  const palette = writing && fifth
    ? h("div", { class: "xpalette", id: "palette", role: "group", "aria-label": t("extra.reflection.palette") },
      fifth.symbols.map((s) => chip(deck, s, { id: `write-${s}`, onclick: () => ctx.act("write", { symbol: s }), label: t("extra.reflection.write", { symbol: symbolName(deck, s) }) })))
    : null;
  let lastEl = null;
  if (x.last) {
    const l = x.last;
    lastEl = h("div", { class: "xround", id: "last-round" },
      h("p", null, t("extra.reflection.shared", { n: l.round })), h("div", { class: "xpalette" }, (l.shared || []).map((s) => chip(deck, s))),
      h("ul", null, (l.answers || []).map((a, s) => h("li", null, t("extra.reflection.scored", { name: ctx.names(s), n: (l.points || [])[s] || 0 }), " ",
        (a || []).map((sym) => h("span", { class: `tag${(l.shared || []).includes(sym) ? " good" : ""}` }, symbolName(deck, sym)))))));
  }
  append(el,
    seatsBar(ctx, (s) => h("span", { class: "badge" }, t("extra.reflection.written", { n: (x.written || [])[s] || 0 }))),
    h("p", { id: "phase", class: `turnline phase-${phase}`, role: "status", "data-phase": phase }, t(`extra.reflection.${phase}`), " ", clock(view)),
    h("div", { class: "xrow" }, h("div", { class: "xfour" }, four), fifthEl),
    phase === "answer" && me >= 0 ? sheet : null,
    palette,
    lastEl);
}

// feed says what was written, which phase begins and the points scored.
export function feed(e, f) {
  switch (e.kind) {
    case "write":
      f.line("feed.write", e.seat, e.symbol >= 0 ? { symbol: e.symbol } : {});
      return true;
    case "phase":
      f.note(`feed.phase${e.count}`);
      return true;
    case "score":
      f.line("feed.points", e.seat, { n: e.count });
      return true;
    default:
      return false;
  }
}

// keys: a symbol is written.
export function keys() {
  return [["move", ["Tab", "←→"], "keys.move"], ["act", enterKeys(), "keys.write"]];
}
