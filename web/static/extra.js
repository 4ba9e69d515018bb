// The kit of the game modules (games/NAME.js) that draw their own table (a
// face-down grid taken in turns, cards studied on a clock, a row and
// hands). drawOwn draws such a table from the view and its "extra" (what
// the seat may see of the game's own state) with what the seat may click;
// the rest are the parts the modules share: the seats' bar, whose turn it
// is, the clock, cards and symbols shown alone (the server's one-symbol
// cards).

import { h } from "./dom.js";
import { t, unitName } from "./i18n.js";
import { cardElement, singleCard, symbolName } from "./cards.js";
import { fitOwn, hitSymbol } from "./fit.js";

// COLOURS are the colours of the seats' markers and of whose turn it is.
export const COLOURS = ["#d33a2c", "#1a5fd0", "#1f9d55", "#c77700", "#8e44ad", "#0e8a8a", "#b03a79", "#5b6475"];

// zoneOf lists the view's zones of a kind.
export const zoneOf = (view, kind) => view.zones.filter((z) => z.kind === kind);

// topCard is a zone's top card as the view shows it, or null.
export const topCard = (z) => (z && z.cards.length ? z.cards[z.cards.length - 1] : null);

// enterKeys are the names of the keys that act on the symbol or card in
// focus, for a footer of keys.
export const enterKeys = () => [t("kbd.enter"), t("kbd.space")];

// singles lists the one-symbol cards of deck that show symbols syms.
export function singles(deck, syms) {
  const out = [];
  for (const s of syms) {
    const c = singleCard(deck, s);
    if (c >= 0) out.push(c);
  }
  return out;
}

// chip is symbol s drawn alone, small, with its name under it (and a tag
// above it, when given); a button when onclick is given. label names it
// for assistive technology instead of the symbol's name.
export function chip(deck, s, { cls = "", onclick, id, label, tag } = {}) {
  const c = singleCard(deck, s);
  const svg = c >= 0 ? cardElement(deck, c, { interactive: false }) : null;
  const name = symbolName(deck, s);
  const body = [tag ? h("span", { class: "stag", "aria-hidden": "true" }, tag) : null,
    h("span", { class: "pic" }, svg || h("span", { class: "loading" })), h("span", { class: "sname" }, name)];
  if (onclick) {
    return h("button", { type: "button", class: `chip ${cls}`, id, "data-symbol": s, "aria-label": label || name, onclick }, body);
  }
  if (label) {
    return h("span", { class: `chip ${cls}`, id, "data-symbol": s, role: "img", "aria-label": label, title: label }, body);
  }
  return h("span", { class: `chip ${cls}`, id, "data-symbol": s, title: name }, body);
}

// face is card c drawn at a size class, its symbols clickable when
// interactive; a grey disc while its picture loads.
export function face(ctx, c, size, interactive) {
  const svg = cardElement(ctx.deck, c, { interactive });
  return h("div", { class: `xcard ${size}` }, svg || h("div", { class: "loading" }));
}

// back is a face-down card drawn at a size class.
export function back(size) {
  return h("div", { class: `xcard ${size} back`, "aria-hidden": "true" });
}

// clock is the time left until the view's deadline, kept up to date by
// the page's clock (data-deadline, on the table's clock).
export function clock(view) {
  if (!view.deadline || view.over) return null;
  return h("span", { class: "clock", "data-deadline": view.deadline, role: "timer" }, "");
}

// seatsBar lists the seats: name, score, whose turn it is, and what each
// game adds (badge returns extra elements for a seat).
export function seatsBar(ctx, badge) {
  const { view, me } = ctx;
  const res = view.result || {};
  const unit = res.unit ? unitName(res.unit) : "";
  const seats = [];
  for (let s = 0; s < view.players; s++) {
    const score = res.scores ? res.scores[s] : 0;
    seats.push(h("li", {
      class: `xseat${s === me ? " mine" : ""}${view.turn === s ? " turn" : ""}`, "data-seat": s,
      style: `--seat: ${COLOURS[s % COLOURS.length]}`,
    },
    h("span", { class: "dot", "aria-hidden": "true" }),
    h("span", { class: "name", title: ctx.names(s) }, ctx.names(s)),
    s === me ? h("span", { class: "you" }, ` (${t("play.you")})`) : null,
    h("span", { class: "score", "data-score": score }, t("play.score", { score, unit })),
    badge ? badge(s) : null));
  }
  return h("ul", { class: "xseats", "aria-label": t("extra.players") }, seats);
}

// turnLine says whose turn it is, with the time left.
export function turnLine(ctx) {
  const { view, me } = ctx;
  if (view.over || view.turn < 0) return null;
  const mine = view.turn === me;
  return h("p", { id: "turn", class: `turnline${mine ? " mine" : ""}`, role: "status" },
    mine ? t("extra.yourTurn") : t("extra.theirTurn", { name: ctx.names(view.turn) }), " ", clock(view));
}

// drawOwn draws the table of a game whose module draws its own (mod.draw)
// into root, and makes a click on an offered zone pick it and a click on a
// symbol that can be focused act on it (ctx.symbol).
export function drawOwn(root, ctx, mod) {
  const el = h("div", { class: `xgame x-${ctx.view.game}`, "data-version": ctx.view.version });
  mod.draw(el, ctx);
  el.addEventListener("click", (e) => {
    const choice = e.target.closest(".choice[data-zone]");
    if (choice) { e.preventDefault(); ctx.pick(Number(choice.dataset.zone)); return; }
    const g = e.target.closest("g[data-symbol]") || hitSymbol(e.target);
    const z = e.target.closest("[data-zone]");
    if (g && z && g.hasAttribute("tabindex")) ctx.symbol(Number(z.dataset.zone), Number(g.getAttribute("data-symbol")));
  });
  root.replaceChildren(el);
  if (el.isConnected) fitOwn(el);
}
