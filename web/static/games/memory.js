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
      "aria-label": ci >= 0 ? t("memory.flipThis", { n: ci + 1 }) : null,
    },
    z.count ? back("mid") : h("div", { class: "xcard mid empty", "aria-hidden": "true" }),
    marked.has(z.zone) ? h("span", { class: "marker", title: t("memory.marker") }) : null);
  });
  let lastEl = null;
  if (x.last && x.last.card >= 0) {
    const l = x.last;
    lastEl = h("div", { class: "xlast", id: "last-flip" },
      face(ctx, l.card, "small", false),
      h("p", null, t(l.taken ? "memory.taken" : "memory.missed",
        { name: ctx.names(l.seat), symbol: symbolName(deck, l.symbol) })));
  }
  append(el,
    seatsBar(ctx, (s) => {
      const won = view.zones.find((z) => z.kind === "won" && z.seat === s);
      return h("span", { class: "badge" }, t("memory.cards", { n: won ? won.count : 0 }));
    }),
    turnLine(ctx),
    h("p", { class: "xhint" }, mine ? (ctx.choose ? t("memory.pickCard") : t("memory.nameSymbol")) : t("memory.watch")),
    h("div", { class: "xrow" },
      h("div", { class: "zone xup", "data-zone": up.zone, "data-kind": "centre" }, topCard(up) ? face(ctx, topCard(up).card, "big", mine) : back("big"),
        h("div", { class: "zlabel" }, t("memory.faceUp"))),
      lastEl),
    h("div", { class: "xgrid", role: "group", "aria-label": t("memory.grid") }, places));
}

// feed says what a flip found.
export function feed(e, f) {
  if (e.kind !== "flip" || e.seat < 0) return false;
  const taken = f.evs.some((x) => x.kind === "score" && x.seat === e.seat);
  f.line(taken ? "memory.feed.flipTaken" : "memory.feed.flipMissed", e.seat, { symbol: e.symbol });
  return true;
}

// keys: a symbol is named, then a card chosen.
export function keys() {
  return [["move", ["Tab", "←→"], "keys.move"], ["act", enterKeys(), "memory.keys.name"], ["choose", ["1–9"], "keys.choose"], ["cancel", ["Esc"], "keys.cancel"]];
}

// The module's texts in every language the client speaks (i18n.js's
// LANGS), added to the client's when the module is loaded. Every key
// begins with the game's name.

const en = {
  "memory.flipThis": "Flip card {n}",
  "memory.marker": "Marker: nobody may flip it until every card left has one",
  "memory.taken": "{name} named {symbol}: it was there, card taken",
  "memory.missed": "{name} named {symbol}: not there, card marked",
  "memory.cards": "{n} taken",
  "memory.pickCard": "Now flip a face-down card (click it or press its number); Esc cancels.",
  "memory.nameSymbol": "Name a symbol of the face-up card: click it.",
  "memory.watch": "Watch the cards flipped: remember where each symbol is.",
  "memory.faceUp": "Face-up card",
  "memory.grid": "Face-down cards",
  "memory.feed.flipTaken": "{name} named {symbol} and took the card",
  "memory.feed.flipTaken.you": "You named {symbol} and took the card",
  "memory.feed.flipMissed": "{name} named {symbol}: not on the card",
  "memory.feed.flipMissed.you": "You named {symbol}: not on the card",
  "memory.keys.name": "name the symbol",
};

const pl = {
  "memory.flipThis": "Odwróć kartę {n}",
  "memory.marker": "Znacznik: nikt nie może jej odwrócić, dopóki każda pozostała karta nie ma znacznika",
  "memory.taken": "{name} wskazuje {symbol}: jest, karta zabrana",
  "memory.missed": "{name} wskazuje {symbol}: nie ma, karta oznaczona",
  "memory.cards": "zabrane: {n}",
  "memory.pickCard": "Teraz odwróć zakrytą kartę (kliknij ją lub naciśnij jej numer); Esc anuluje.",
  "memory.nameSymbol": "Wskaż symbol odkrytej karty: kliknij go.",
  "memory.watch": "Obserwuj odwracane karty: zapamiętaj, gdzie jest który symbol.",
  "memory.faceUp": "Karta odkryta",
  "memory.grid": "Karty zakryte",
  "memory.feed.flipTaken": "{name} wskazuje {symbol} i bierze kartę",
  "memory.feed.flipTaken.you": "Wskazujesz {symbol} i bierzesz kartę",
  "memory.feed.flipMissed": "{name} wskazuje {symbol}: nie ma go na karcie",
  "memory.feed.flipMissed.you": "Wskazujesz {symbol}: nie ma go na karcie",
  "memory.keys.name": "nazwij symbol",
};

const da = {
  "memory.flipThis": "Vend kort {n}",
  "memory.marker": "Markør: ingen må vende det, før alle resterende kort har en",
  "memory.taken": "{name} nævnte {symbol}: det var der, kortet er taget",
  "memory.missed": "{name} nævnte {symbol}: det var der ikke, kortet er markeret",
  "memory.cards": "{n} taget",
  "memory.pickCard": "Vend nu et skjult kort (klik på det eller tryk på dets nummer); Esc fortryder.",
  "memory.nameSymbol": "Nævn et symbol på det åbne kort: klik på det.",
  "memory.watch": "Se de vendte kort: husk, hvor hvert symbol er.",
  "memory.faceUp": "Åbent kort",
  "memory.grid": "Skjulte kort",
  "memory.feed.flipTaken": "{name} nævnte {symbol} og tog kortet",
  "memory.feed.flipTaken.you": "Du nævnte {symbol} og tog kortet",
  "memory.feed.flipMissed": "{name} nævnte {symbol}: ikke på kortet",
  "memory.feed.flipMissed.you": "Du nævnte {symbol}: ikke på kortet",
  "memory.keys.name": "nævn symbolet",
};

const ru = {
  "memory.flipThis": "Перевернуть карту {n}",
  "memory.marker": "Фишка: её нельзя переворачивать, пока фишки нет на каждой оставшейся карте",
  "memory.taken": "{name} назвал(а) {symbol}: есть, карта взята",
  "memory.missed": "{name} назвал(а) {symbol}: нет, на карте фишка",
  "memory.cards": "взято: {n}",
  "memory.pickCard": "Теперь переверните закрытую карту (щёлкните её или нажмите её номер); Esc — отмена.",
  "memory.nameSymbol": "Назовите символ открытой карты: щёлкните его.",
  "memory.watch": "Следите за перевёрнутыми картами: запоминайте, где какой символ.",
  "memory.faceUp": "Открытая карта",
  "memory.grid": "Закрытые карты",
  "memory.feed.flipTaken": "{name} называет {symbol} и забирает карту",
  "memory.feed.flipTaken.you": "Вы называете {symbol} и забираете карту",
  "memory.feed.flipMissed": "{name} называет {symbol}: на карте его нет",
  "memory.feed.flipMissed.you": "Вы называете {symbol}: на карте его нет",
  "memory.keys.name": "назвать символ",
};

const zh = {
  "memory.flipThis": "翻开第 {n} 张牌",
  "memory.marker": "标记：在剩下的每张牌都有标记之前，谁也不能翻它",
  "memory.taken": "{name} 说了 {symbol}：有，拿走了牌",
  "memory.missed": "{name} 说了 {symbol}：没有，牌被标记",
  "memory.cards": "已拿 {n}",
  "memory.pickCard": "现在翻开一张暗牌（点击它或按它的数字键）；Esc 取消。",
  "memory.nameSymbol": "说出明牌上的一个符号：点击它。",
  "memory.watch": "注意翻开的牌：记住每个符号在哪里。",
  "memory.faceUp": "明牌",
  "memory.grid": "暗牌",
  "memory.feed.flipTaken": "{name} 说了 {symbol} 并拿走了牌",
  "memory.feed.flipTaken.you": "你说了 {symbol} 并拿走了牌",
  "memory.feed.flipMissed": "{name} 说了 {symbol}：牌上没有",
  "memory.feed.flipMissed.you": "你说了 {symbol}：牌上没有",
  "memory.keys.name": "说出该图案",
};

const it = {
  "memory.flipThis": "Gira la carta {n}",
  "memory.marker": "Segnalino: nessuno può girarla finché ogni carta rimasta non ne ha uno",
  "memory.taken": "{name} ha nominato {symbol}: c'era, carta presa",
  "memory.missed": "{name} ha nominato {symbol}: non c'era, carta segnata",
  "memory.cards": "{n} prese",
  "memory.pickCard": "Ora gira una carta coperta (cliccala o premi il suo numero); Esc annulla.",
  "memory.nameSymbol": "Nomina un simbolo della carta scoperta: cliccalo.",
  "memory.watch": "Guarda le carte girate: ricorda dov'è ogni simbolo.",
  "memory.faceUp": "Carta scoperta",
  "memory.grid": "Carte coperte",
  "memory.feed.flipTaken": "{name} ha nominato {symbol} e ha preso la carta",
  "memory.feed.flipTaken.you": "Hai nominato {symbol} e hai preso la carta",
  "memory.feed.flipMissed": "{name} ha nominato {symbol}: non è sulla carta",
  "memory.feed.flipMissed.you": "Hai nominato {symbol}: non è sulla carta",
  "memory.keys.name": "nomina il simbolo",
};

export const texts = { en, pl, da, ru, zh, it };
