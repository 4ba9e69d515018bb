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
  // The token of the seat's own claim in flight is shown taken at once.
  const tokens = (x.tokens || []).filter((s) => s !== ctx.pending);
  const pile = view.zones.find((z) => z.kind === "pile" && z.seat === me);
  const controls = [];
  if (me >= 0 && !view.over && pile) {
    if (pile.count > 0) {
      controls.push(h("button", { id: "discard", onclick: () => ctx.act("discard", {}) }, t("collect-symbols.discard")));
    } else {
      for (const z of view.zones) {
        if (z.kind === "discard" && z.seat !== me && z.count > 0) {
          controls.push(h("button", { id: `take-${z.zone}`, class: "primary", onclick: () => ctx.act("take", { target: [z.zone] }) },
            t("collect-symbols.take", { name: ctx.names(z.seat), n: z.count })));
        }
      }
    }
  }
  return h("div", { class: "xcollect" },
    h("p", { class: "xhint" }, t("collect-symbols.tokens", { n: tokens.length })),
    h("div", { class: "xpalette tokens", id: "tokens" }, tokens.map((s) => chip(deck, s, { cls: "token" }))),
    controls.length ? h("div", { class: "row actions" }, controls) : null);
}

// feed says who discarded and who took over a discard pile (turned over
// card by card: one line for it).
export function feed(e, f) {
  if (e.kind !== "move" || e.seat < 0 || f.evs.some((x) => x.kind === "claim")) return false;
  const z = f.view.zones[e.from];
  if (z && z.kind === "discard") {
    if (e === f.evs.find((x) => x.kind === "move")) f.line("collect-symbols.feed.take", e.seat, { n: f.evs.length, owner: f.sessionSeat(z.seat) });
  } else f.line("collect-symbols.feed.discard", e.seat);
  return true;
}

// The module's texts in every language the client speaks (i18n.js's
// LANGS), added to the client's when the module is loaded. Every key
// begins with the game's name.

const en = {
  "collect-symbols.discard": "Discard my top card",
  "collect-symbols.take": "Take {name}'s discard pile ({n})",
  "collect-symbols.tokens": "Tokens in the centre: {n}",
  "collect-symbols.feed.take": "{name} took over {owner}'s discard pile",
  "collect-symbols.feed.take.you": "You took over {owner}'s discard pile",
  "collect-symbols.feed.discard": "{name} discarded",
  "collect-symbols.feed.discard.you": "You discarded",
};

const pl = {
  "collect-symbols.discard": "Odrzuć wierzchnią kartę",
  "collect-symbols.take": "Weź odrzucone karty: {name} ({n})",
  "collect-symbols.tokens": "Żetony na środku: {n}",
  "collect-symbols.feed.take": "{name} przejmuje odrzucone karty: {owner}",
  "collect-symbols.feed.take.you": "Przejmujesz odrzucone karty: {owner}",
  "collect-symbols.feed.discard": "{name} odrzuca kartę",
  "collect-symbols.feed.discard.you": "Odrzucasz kartę",
};

const da = {
  "collect-symbols.discard": "Læg mit øverste kort fra mig",
  "collect-symbols.take": "Tag {name}s afkastbunke ({n})",
  "collect-symbols.tokens": "Brikker i midten: {n}",
  "collect-symbols.feed.take": "{name} overtog {owner}s afkastbunke",
  "collect-symbols.feed.take.you": "Du overtog {owner}s afkastbunke",
  "collect-symbols.feed.discard": "{name} lagde et kort fra sig",
  "collect-symbols.feed.discard.you": "Du lagde et kort fra dig",
};

const ru = {
  "collect-symbols.discard": "Сбросить верхнюю карту",
  "collect-symbols.take": "Забрать сброс: {name} ({n})",
  "collect-symbols.tokens": "Жетонов в центре: {n}",
  "collect-symbols.feed.take": "{name} забирает сброс игрока {owner}",
  "collect-symbols.feed.take.you": "Вы забираете сброс игрока {owner}",
  "collect-symbols.feed.discard": "{name} сбрасывает карту",
  "collect-symbols.feed.discard.you": "Вы сбрасываете карту",
};

const zh = {
  "collect-symbols.discard": "弃掉我的顶牌",
  "collect-symbols.take": "接手 {name} 的弃牌堆（{n}）",
  "collect-symbols.tokens": "中间的筹码：{n}",
  "collect-symbols.feed.take": "{name} 接手了 {owner} 的弃牌堆",
  "collect-symbols.feed.take.you": "你接手了 {owner} 的弃牌堆",
  "collect-symbols.feed.discard": "{name} 弃了一张牌",
  "collect-symbols.feed.discard.you": "你弃了一张牌",
};

const it = {
  "collect-symbols.discard": "Scarta la mia carta in cima",
  "collect-symbols.take": "Prendi gli scarti di {name} ({n})",
  "collect-symbols.tokens": "Gettoni al centro: {n}",
  "collect-symbols.feed.take": "{name} ha preso gli scarti di {owner}",
  "collect-symbols.feed.take.you": "Hai preso gli scarti di {owner}",
  "collect-symbols.feed.discard": "{name} ha scartato",
  "collect-symbols.feed.discard.you": "Hai scartato",
};

export const texts = { en, pl, da, ru, zh, it };
