// The tables of the extra mini-games whose play is more than finding a
// match (RULES.md §4): Memory's face-down grid taken in turns, Reflection's
// cards studied on a clock and answered from memory, Guess's cards turned
// one by one towards a secret, False Poker's row and hands. Each is drawn
// from the view and its "extra" (what the seat may see of the game's own
// state), with what the seat may click; Collect the Symbols adds its
// tokens and its discard and take to the common table. Symbols shown
// alone (tokens, a palette to pick from) are the server's one-symbol cards.

import { h, append } from "./dom.js";
import { t } from "./i18n.js";
import { cardElement, singleCard, deckSymbols, symbolName } from "./cards.js";

// EXTRA_GAMES are the games drawn here instead of by the common table.
export const EXTRA_GAMES = new Set(["memory", "reflection", "guess", "false-poker"]);

// The colours of the seats' markers (False Poker) and of whose turn it is.
const COLOURS = ["#d33a2c", "#1a5fd0", "#1f9d55", "#c77700", "#8e44ad", "#0e8a8a", "#b03a79", "#5b6475"];

const zoneOf = (view, kind) => view.zones.filter((z) => z.kind === kind);
const topCard = (z) => (z && z.cards.length ? z.cards[z.cards.length - 1] : null);

// extraCards lists the cards a view shows beside its zones' own: Memory's
// card flipped last (face down again), and the one-symbol cards of the
// tokens and palettes.
export function extraCards(view, deck) {
  const x = view.extra || {};
  const out = [];
  const singles = (syms) => {
    for (const s of syms) {
      const c = singleCard(deck, s);
      if (c >= 0) out.push(c);
    }
  };
  switch (view.game) {
    case "memory":
      if (x.last && x.last.card >= 0) out.push(x.last.card);
      break;
    case "reflection": {
      const fifth = topCard(zoneOf(view, "centre")[0]);
      if (fifth) singles(fifth.symbols);
      if (x.last) singles(x.last.shared || []);
      break;
    }
    case "guess":
      singles([...Array(deckSymbols(deck)).keys()]);
      break;
    case "collect-symbols":
      singles(x.tokens || []);
      break;
    default:
  }
  return out;
}

// chip is symbol s drawn alone, small, with its name under it (and a tag
// above it, when given); a button when onclick is given. label names it
// for assistive technology instead of the symbol's name.
function chip(deck, s, { cls = "", onclick, id, label, tag } = {}) {
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
function face(ctx, c, size, interactive) {
  const svg = cardElement(ctx.deck, c, { interactive });
  return h("div", { class: `xcard ${size}` }, svg || h("div", { class: "loading" }));
}

function back(size) {
  return h("div", { class: `xcard ${size} back`, "aria-hidden": "true" });
}

// clock is the time left until the view's deadline, kept up to date by
// the page's clock (data-deadline, on the table's clock).
function clock(view) {
  if (!view.deadline || view.over) return null;
  return h("span", { class: "clock", "data-deadline": view.deadline, role: "timer" }, "");
}

// seatsBar lists the seats: name, score, whose turn it is, and what each
// game adds (badge returns extra elements for a seat).
function seatsBar(ctx, badge) {
  const { view, me } = ctx;
  const res = view.result || {};
  const unit = res.unit ? t(`unit.${res.unit}`) : "";
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
function turnLine(ctx) {
  const { view, me } = ctx;
  if (view.over || view.turn < 0) return null;
  const mine = view.turn === me;
  return h("p", { id: "turn", class: `turnline${mine ? " mine" : ""}`, role: "status" },
    mine ? t("extra.yourTurn") : t("extra.theirTurn", { name: ctx.names(view.turn) }), " ", clock(view));
}

// drawExtra draws the table of an extra game into root. ctx holds the
// view, the deck, the viewer's seat (me), names(seat), the selection
// kept between draws (sel), the target choice offered (choose) and what a
// click does: act(type, fields) sends an action, select(patch) changes the
// selection, offer(zones, fields) asks which zone is meant.
export function drawExtra(root, ctx) {
  const el = h("div", { class: `xgame x-${ctx.view.game}`, "data-version": ctx.view.version });
  switch (ctx.view.game) {
    case "memory": memory(el, ctx); break;
    case "reflection": reflection(el, ctx); break;
    case "guess": guess(el, ctx); break;
    case "false-poker": falsePoker(el, ctx); break;
    default:
  }
  el.addEventListener("click", (e) => {
    const choice = e.target.closest(".choice[data-zone]");
    if (choice) { e.preventDefault(); ctx.pick(Number(choice.dataset.zone)); return; }
    const g = e.target.closest("g[data-symbol]");
    const z = e.target.closest("[data-zone]");
    if (g && z && g.hasAttribute("tabindex")) ctx.symbol(Number(z.dataset.zone), Number(g.getAttribute("data-symbol")));
  });
  root.replaceChildren(el);
}

// extraSymbol is what a click (or Enter) on symbol in zone does in an
// extra game: Memory names it to flip a card, Reflection writes it,
// Guess selects it to guess, False Poker lays the card it is on.
export function extraSymbol(ctx, zone, symbol) {
  const { view, me } = ctx;
  const x = view.extra || {};
  const z = view.zones[zone];
  if (me < 0 || view.over || !z) return;
  switch (view.game) {
    case "memory":
      if (view.turn !== me || z.kind !== "centre") return;
      ctx.offer(memoryFlippable(view), { type: "flip", symbol });
      return;
    case "reflection":
      if (x.phase === "answer" && z.kind === "centre" && (x.answers || []).length < 4) ctx.act("write", { symbol });
      return;
    case "guess":
      ctx.select({ guess: symbol });
      return;
    case "false-poker":
      if (z.kind === "hand" && z.seat === me) ctx.act("lay", { target: [zone] });
      return;
    default:
  }
}

// memoryFlippable lists the face-down places that may be flipped: those
// without a marker, or every one when all have one.
function memoryFlippable(view) {
  const marked = new Set((view.extra && view.extra.marked) || []);
  const all = zoneOf(view, "facedown").filter((z) => z.count > 0).map((z) => z.zone);
  const free = all.filter((z) => !marked.has(z));
  return free.length ? free : all;
}

function memory(el, ctx) {
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

function reflection(el, ctx) {
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

// guessCandidates lists the symbols that may still be the secret: on
// every turned card said to hold it, on none said not to, not eliminated.
export function guessCandidates(view, deck) {
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

function guess(el, ctx) {
  const { view, me, deck } = ctx;
  const x = view.extra || {};
  const turned = zoneOf(view, "turned")[0];
  const flips = x.flips || [];
  const hosting = x.host >= 0 && x.host === me;
  // The host seat's view alone carries the secret: its page marks it
  // among the candidates.
  const secret = hosting && x.secret >= 0 ? x.secret : -1;
  const out = (x.out || []).includes(me);
  const cands = guessCandidates(view, deck);
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

function falsePoker(el, ctx) {
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

// collectPanel is Collect the Symbols' part above the common table: the
// tokens left in the centre, and the seat's discard, or, its pile empty,
// the discard piles it may take over.
export function collectPanel(ctx) {
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
