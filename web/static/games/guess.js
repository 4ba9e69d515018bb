// Guess (RULES.md §4.3): cards are turned one by one, each saying whether
// the secret symbol is on it and crossing a symbol out; a seat picks one of
// the symbols that may still be the secret and guesses it. The host of a
// round (a seat, with the "player" host) sees the secret and does not
// guess.

import { h, append } from "../dom.js";
import { t } from "../i18n.js";
import { deckSymbols, symbolName } from "../cards.js";
import { zoneOf, chip, face, back, seatsBar, clock, singles, enterKeys } from "../extra.js";

// cards lists the one-symbol card of every symbol: the candidates.
export function cards(view, deck) {
  return singles(deck, [...Array(deckSymbols(deck)).keys()]);
}

// symbol selects a symbol to guess.
export function symbol(ctx, zone, s) {
  ctx.select({ guess: s });
}

// candidates lists the symbols that may still be the secret: on every
// turned card said to hold it, on none said not to, not crossed out.
function candidates(view, deck) {
  const x = view.extra || {};
  const turned = zoneOf(view, "turned")[0];
  const flips = x.flips || [];
  const n = deckSymbols(deck);
  const elim = new Set(x.eliminated || []);
  const out = [];
  for (let s = 0; s < n; s++) {
    if (elim.has(s)) continue;
    let ok = true;
    flips.forEach((f, i) => {
      const c = turned && turned.cards[i];
      if (!c) return;
      if (f.secret !== c.symbols.includes(s)) ok = false;
    });
    if (ok) out.push(s);
  }
  return out;
}

// draw draws the seats, who hosts, the card turned last with what it
// says, the cards turned before, the candidates and the Guess button.
export function draw(el, ctx) {
  const { view, me, deck } = ctx;
  const x = view.extra || {};
  const turned = zoneOf(view, "turned")[0];
  const flips = x.flips || [];
  const hosting = x.host >= 0 && x.host === me;
  // The host seat's view alone carries the secret: its page marks it
  // among the candidates.
  const secret = hosting && x.secret >= 0 ? x.secret : -1;
  const out = (x.out || []).includes(me);
  const cands = candidates(view, deck);
  const sel = ctx.sel.guess !== undefined && cands.includes(ctx.sel.guess) ? ctx.sel.guess : undefined;
  const can = me >= 0 && !hosting && !out && !view.over;
  const lastFlip = flips.length ? flips[flips.length - 1] : null;
  const lastCard = lastFlip && turned ? turned.cards[flips.length - 1] : null;
  const host = x.host >= 0
    ? (hosting ? h("p", { id: "host", class: "xhost mine" }, t("extra.guess.youHost"), " ", chip(deck, x.secret, { cls: "secret" }))
      : h("p", { id: "host", class: "xhost" }, t("extra.guess.hosts", { name: ctx.names(x.host) })))
    : h("p", { id: "host", class: "xhost" }, t("extra.guess.serverHosts"));
  const elim = new Set(x.eliminated || []);
  const candSet = new Set(cands);
  const n = deckSymbols(deck);
  const palette = h("div", {
    class: "xpalette guess", id: "candidates", role: "group",
    "aria-label": t(hosting ? "extra.guess.hostCandidates" : "extra.guess.candidates", { n: cands.length }),
  },
    [...Array(n).keys()].map((s) => {
      const cls = `${elim.has(s) ? "out" : candSet.has(s) ? "cand" : "no"}${s === sel ? " sel" : ""}`;
      if (s === secret) {
        return chip(deck, s, {
          cls: `${cls} secret`, id: "cand-secret", tag: t("extra.guess.secretTag"),
          label: t("extra.guess.secretMark", { symbol: symbolName(deck, s) }),
        });
      }
      return can && candSet.has(s)
        ? chip(deck, s, { cls, id: `cand-${s}`, onclick: () => ctx.select({ guess: s }) })
        : chip(deck, s, { cls });
    }));
  append(el,
    seatsBar(ctx, (s) => (x.host === s ? h("span", { class: "badge" }, t("extra.guess.host")) : (x.out || []).includes(s) ? h("span", { class: "badge off" }, t("extra.out")) : null)),
    host,
    h("p", { id: "next-card", class: "turnline", role: "status" }, t("extra.guess.next"), " ", clock(view)),
    h("div", { class: "xrow" },
      lastCard ? h("div", { class: "zone xturned", "data-zone": turned.zone, "data-kind": "turned" },
        face(ctx, lastCard.card, "big", can),
        h("p", { id: "flip-says", class: `says ${lastFlip.secret ? "yes" : "no"}` }, t(lastFlip.secret ? "extra.guess.onIt" : "extra.guess.notOnIt")),
        lastFlip.eliminated >= 0 ? h("p", { class: "says" }, t("extra.guess.eliminated"), " ", chip(deck, lastFlip.eliminated, { cls: "out" })) : null)
        : h("div", { class: "zone xturned" }, back("big"), h("p", { class: "says" }, t("extra.guess.firstCard"))),
      h("div", { class: "xflips", "aria-label": t("extra.guess.turned", { n: flips.length }) },
        flips.slice(0, -1).slice(-8).map((f, i, a) => {
          const c = turned.cards[flips.length - 1 - a.length + i];
          return h("div", { class: `xflip ${f.secret ? "yes" : "no"}` }, c ? face(ctx, c.card, "small", false) : back("small"));
        }))),
    h("p", { id: "guess-hint", class: `xhint${hosting ? " hosting" : ""}` },
      out ? t("extra.guess.youOut") : hosting ? t("extra.guess.hostHint") : t("extra.guess.count", { n: cands.length })),
    palette,
    can ? h("div", { class: "row actions" },
      h("button", {
        id: "guess", class: "primary", disabled: sel === undefined,
        onclick: () => { if (sel !== undefined) ctx.act("guess", { symbol: sel }); },
      }, sel === undefined ? t("extra.guess.pick") : t("extra.guess.btn", { symbol: symbolName(deck, sel) }))) : null,
    x.last >= 0 ? h("p", { id: "last-secret", class: "xhint" }, t("extra.guess.lastSecret"), " ", chip(deck, x.last)) : null);
}

// feed says what each card turned tells, the guesses and the secret.
export function feed(e, f) {
  switch (e.kind) {
    case "flip":
      if (e.seat < 0) f.note(e.count ? "feed.cardYes" : "feed.cardNo");
      return true;
    case "guess":
      f.line(e.count ? "feed.guessRight" : "feed.guessWrong", e.seat, { symbol: e.symbol });
      return true;
    case "secret":
      if (e.seat < 0) f.note("feed.secret", { symbol: e.symbol });
      return true;
    case "out":
      return true;
    default:
      return false;
  }
}

// keys: a symbol is picked, then guessed with the Guess button.
export function keys() {
  return [["move", ["Tab", "←→"], "keys.move"], ["act", enterKeys(), "keys.pick"]];
}
