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
  const rowEl = h("ol", { class: "xrowcards", id: "row", "data-zone": row.zone, "data-kind": "row", "aria-label": t("false-poker.row", { n: row.cards.length }) },
    row.cards.map((c, i) => h("li", { style: layers[i] >= 0 ? `--seat: ${COLOURS[layers[i] % COLOURS.length]}` : null },
      face(ctx, c.card, "mid", false),
      layers[i] >= 0 ? h("span", { class: "marker", title: t("false-poker.laidBy", { name: ctx.names(layers[i]) }) }) : null)));
  const handEl = me >= 0 ? h("div", { class: "xhand", id: "hand", role: "group", "aria-label": t("false-poker.hand") },
    hand.map((z) => {
      const c = topCard(z);
      if (!c) return null;
      const body = face(ctx, c.card, "mid", false);
      return mine && free > 0
        ? h("button", { type: "button", class: "handcard", id: `lay-${z.zone}`, "data-zone": z.zone, "aria-label": t("false-poker.lay"), onclick: () => ctx.act("lay", { target: [z.zone] }) }, body)
        : h("div", { class: "handcard", "data-zone": z.zone }, body);
    })) : null;
  append(el,
    seatsBar(ctx, (s) => [
      h("span", { class: "badge", style: `--seat: ${COLOURS[s % COLOURS.length]}` }, t("false-poker.free", { n: (x.free || [])[s] ?? 0 })),
      (x.out || []).includes(s) ? h("span", { class: "badge off" }, t("extra.out")) : null,
    ]),
    turnLine(ctx),
    h("p", { class: "xhint" }, mine ? (free > 0 ? t("false-poker.yourMove") : t("false-poker.noMarker")) : t("false-poker.check")),
    rowEl,
    mine ? h("div", { class: "row actions" }, h("button", { id: "stop", class: "primary stop", "aria-keyshortcuts": "S", onclick: () => ctx.act("stop", {}) }, t("false-poker.stop"))) : null,
    handEl);
}

// feed says who laid a card, said STOP, ran out of time and lost markers,
// and why.
export function feed(e, f) {
  switch (e.kind) {
    case "move":
      if (e.seat < 0 || f.evs.some((x) => x.kind === "claim") || f.view.zones[e.to]?.kind !== "row") return false;
      f.line("false-poker.feed.lay", e.seat);
      return true;
    case "stop":
      f.line("false-poker.feed.stop", e.seat);
      return true;
    case "out":
      f.line("false-poker.feed.outOfTime", e.seat);
      return true;
    case "score":
      why(e, f);
      return true;
    case "round":
      // The new round follows the check: the line saying why the check
      // cost what it did stays the one on show.
      return f.evs.some((x) => x.kind === "score");
    default:
      return false;
  }
}

// why says what a row's check found and what it cost (RULES.md §4.5):
// the loser laid the first card whose shared symbol repeats an earlier
// one, or no shared symbol repeats and the loser said STOP (or ran out of
// time last). The row is the view's before the update, its shared
// symbols read from the faces on screen; while a face is not loaded, the
// line says only what the loser lost.
function why(e, f) {
  const n = -e.count;
  const row = zoneOf(f.view, "row")[0];
  const cards = row ? row.cards.map((c) => f.symbolsOf(c.card)) : [];
  if (!cards.length || cards.some((s) => s === null)) {
    f.line("false-poker.feed.markers", e.seat, { n });
    return;
  }
  const seen = new Set();
  for (let i = 1; i < cards.length; i++) {
    const shared = cards[i].find((s) => cards[i - 1].includes(s));
    if (seen.has(shared)) {
      f.line("false-poker.feed.repeat", e.seat, { n, symbol: shared });
      return;
    }
    seen.add(shared);
  }
  f.line("false-poker.feed.noRepeat", e.seat, { n });
}

// keys: the hand's cards are buttons, reached with Tab; S says STOP.
export function keys() {
  return [["move", ["Tab"], "false-poker.keys.moveCards"], ["act", enterKeys(), "false-poker.keys.lay"], ["stop", ["S"], "false-poker.keys.stop"]];
}

// letters: S presses the STOP button, shown on the seat's turn.
export const letters = { s: () => document.getElementById("stop")?.click() };

// The module's texts in every language the client speaks (i18n.js's
// LANGS), added to the client's when the module is loaded. Every key
// begins with the game's name.

const en = {
  "false-poker.row#one": "The row: {n} card",
  "false-poker.row#other": "The row: {n} cards",
  "false-poker.laidBy": "Laid by {name}",
  "false-poker.hand": "Your hand",
  "false-poker.lay": "Lay this card at the end of the row",
  "false-poker.free": "Free markers: {n}",
  "false-poker.yourMove": "Lay a card at the end of the row (click it), or say STOP if the row has a repeat.",
  "false-poker.noMarker": "All your markers are on the row: say STOP.",
  "false-poker.check": "Check the row: do two pairs of neighbours share the same symbol?",
  "false-poker.stop": "STOP",
  "false-poker.feed.repeat#one": "{name} loses {n} marker: their card repeats {symbol}",
  "false-poker.feed.repeat#other": "{name} loses {n} markers: their card repeats {symbol}",
  "false-poker.feed.repeat.you#one": "You lose {n} marker: your card repeats {symbol}",
  "false-poker.feed.repeat.you#other": "You lose {n} markers: your card repeats {symbol}",
  "false-poker.feed.noRepeat#one": "{name} loses {n} marker: the row has no repeat",
  "false-poker.feed.noRepeat#other": "{name} loses {n} markers: the row has no repeat",
  "false-poker.feed.noRepeat.you#one": "You lose {n} marker: the row has no repeat",
  "false-poker.feed.noRepeat.you#other": "You lose {n} markers: the row has no repeat",
  "false-poker.feed.lay": "{name} laid a card",
  "false-poker.feed.lay.you": "You laid a card",
  "false-poker.feed.stop": "{name} said STOP",
  "false-poker.feed.stop.you": "You said STOP",
  "false-poker.feed.outOfTime": "{name} ran out of time and is out of the round",
  "false-poker.feed.outOfTime.you": "You ran out of time and are out of the round",
  "false-poker.feed.markers#one": "{name} loses {n} marker",
  "false-poker.feed.markers#other": "{name} loses {n} markers",
  "false-poker.feed.markers.you#one": "You lose {n} marker",
  "false-poker.feed.markers.you#other": "You lose {n} markers",
  "false-poker.keys.moveCards": "move between your cards",
  "false-poker.keys.lay": "lay the card",
  "false-poker.keys.stop": "say STOP",
};

const pl = {
  "false-poker.row#one": "Rząd: {n} karta",
  "false-poker.row#few": "Rząd: {n} karty",
  "false-poker.row#many": "Rząd: {n} kart",
  "false-poker.row#other": "Rząd: {n} karty",
  "false-poker.laidBy": "Położył(a): {name}",
  "false-poker.hand": "Twoja ręka",
  "false-poker.lay": "Połóż tę kartę na końcu rzędu",
  "false-poker.free": "Wolne znaczniki: {n}",
  "false-poker.yourMove": "Połóż kartę na końcu rzędu (kliknij ją) albo powiedz STOP, jeśli w rzędzie jest powtórzenie.",
  "false-poker.noMarker": "Wszystkie twoje znaczniki leżą w rzędzie: powiedz STOP.",
  "false-poker.check": "Sprawdzaj rząd: czy dwie pary sąsiadów mają ten sam wspólny symbol?",
  "false-poker.stop": "STOP",
  "false-poker.feed.repeat#one": "{name} traci {n} znacznik: jego karta powtarza wspólny symbol {symbol}",
  "false-poker.feed.repeat#few": "{name} traci {n} znaczniki: jego karta powtarza wspólny symbol {symbol}",
  "false-poker.feed.repeat#many": "{name} traci {n} znaczników: jego karta powtarza wspólny symbol {symbol}",
  "false-poker.feed.repeat#other": "{name} traci {n} znacznika: jego karta powtarza wspólny symbol {symbol}",
  "false-poker.feed.repeat.you#one": "Tracisz {n} znacznik: twoja karta powtarza wspólny symbol {symbol}",
  "false-poker.feed.repeat.you#few": "Tracisz {n} znaczniki: twoja karta powtarza wspólny symbol {symbol}",
  "false-poker.feed.repeat.you#many": "Tracisz {n} znaczników: twoja karta powtarza wspólny symbol {symbol}",
  "false-poker.feed.repeat.you#other": "Tracisz {n} znacznika: twoja karta powtarza wspólny symbol {symbol}",
  "false-poker.feed.noRepeat#one": "{name} traci {n} znacznik: żaden wspólny symbol w rzędzie się nie powtarza",
  "false-poker.feed.noRepeat#few": "{name} traci {n} znaczniki: żaden wspólny symbol w rzędzie się nie powtarza",
  "false-poker.feed.noRepeat#many": "{name} traci {n} znaczników: żaden wspólny symbol w rzędzie się nie powtarza",
  "false-poker.feed.noRepeat#other": "{name} traci {n} znacznika: żaden wspólny symbol w rzędzie się nie powtarza",
  "false-poker.feed.noRepeat.you#one": "Tracisz {n} znacznik: żaden wspólny symbol w rzędzie się nie powtarza",
  "false-poker.feed.noRepeat.you#few": "Tracisz {n} znaczniki: żaden wspólny symbol w rzędzie się nie powtarza",
  "false-poker.feed.noRepeat.you#many": "Tracisz {n} znaczników: żaden wspólny symbol w rzędzie się nie powtarza",
  "false-poker.feed.noRepeat.you#other": "Tracisz {n} znacznika: żaden wspólny symbol w rzędzie się nie powtarza",
  "false-poker.feed.lay": "{name} kładzie kartę",
  "false-poker.feed.lay.you": "Kładziesz kartę",
  "false-poker.feed.stop": "{name} mówi STOP",
  "false-poker.feed.stop.you": "Mówisz STOP",
  "false-poker.feed.outOfTime": "{name}: koniec czasu, odpada z rundy",
  "false-poker.feed.outOfTime.you": "Koniec czasu: odpadasz z rundy",
  "false-poker.feed.markers#one": "{name} traci {n} znacznik",
  "false-poker.feed.markers#few": "{name} traci {n} znaczniki",
  "false-poker.feed.markers#many": "{name} traci {n} znaczników",
  "false-poker.feed.markers#other": "{name} traci {n} znacznika",
  "false-poker.feed.markers.you#one": "Tracisz {n} znacznik",
  "false-poker.feed.markers.you#few": "Tracisz {n} znaczniki",
  "false-poker.feed.markers.you#many": "Tracisz {n} znaczników",
  "false-poker.feed.markers.you#other": "Tracisz {n} znacznika",
  "false-poker.keys.moveCards": "przejście między twoimi kartami",
  "false-poker.keys.lay": "połóż kartę",
  "false-poker.keys.stop": "powiedz STOP",
};

const da = {
  "false-poker.row#one": "Rækken: {n} kort",
  "false-poker.row#other": "Rækken: {n} kort",
  "false-poker.laidBy": "Lagt af {name}",
  "false-poker.hand": "Din hånd",
  "false-poker.lay": "Læg dette kort for enden af rækken",
  "false-poker.free": "Frie markører: {n}",
  "false-poker.yourMove": "Læg et kort for enden af rækken (klik på det), eller sig STOP, hvis rækken har en gentagelse.",
  "false-poker.noMarker": "Alle dine markører ligger i rækken: sig STOP.",
  "false-poker.check": "Tjek rækken: har to par naboer det samme fælles symbol?",
  "false-poker.stop": "STOP",
  "false-poker.feed.repeat#one": "{name} mister {n} markør: deres kort gentager det fælles symbol {symbol}",
  "false-poker.feed.repeat#other": "{name} mister {n} markører: deres kort gentager det fælles symbol {symbol}",
  "false-poker.feed.repeat.you#one": "Du mister {n} markør: dit kort gentager det fælles symbol {symbol}",
  "false-poker.feed.repeat.you#other": "Du mister {n} markører: dit kort gentager det fælles symbol {symbol}",
  "false-poker.feed.noRepeat#one": "{name} mister {n} markør: intet fælles symbol gentages i rækken",
  "false-poker.feed.noRepeat#other": "{name} mister {n} markører: intet fælles symbol gentages i rækken",
  "false-poker.feed.noRepeat.you#one": "Du mister {n} markør: intet fælles symbol gentages i rækken",
  "false-poker.feed.noRepeat.you#other": "Du mister {n} markører: intet fælles symbol gentages i rækken",
  "false-poker.feed.lay": "{name} lagde et kort",
  "false-poker.feed.lay.you": "Du lagde et kort",
  "false-poker.feed.stop": "{name} sagde STOP",
  "false-poker.feed.stop.you": "Du sagde STOP",
  "false-poker.feed.outOfTime": "{name} løb tør for tid og er ude af runden",
  "false-poker.feed.outOfTime.you": "Du løb tør for tid og er ude af runden",
  "false-poker.feed.markers#one": "{name} mister {n} markør",
  "false-poker.feed.markers#other": "{name} mister {n} markører",
  "false-poker.feed.markers.you#one": "Du mister {n} markør",
  "false-poker.feed.markers.you#other": "Du mister {n} markører",
  "false-poker.keys.moveCards": "flyt mellem dine kort",
  "false-poker.keys.lay": "læg kortet",
  "false-poker.keys.stop": "sig STOP",
};

const ru = {
  "false-poker.row#one": "Ряд: {n} карта",
  "false-poker.row#few": "Ряд: {n} карты",
  "false-poker.row#many": "Ряд: {n} карт",
  "false-poker.row#other": "Ряд: {n} карты",
  "false-poker.laidBy": "Положил(а): {name}",
  "false-poker.hand": "Ваши карты",
  "false-poker.lay": "Положить эту карту в конец ряда",
  "false-poker.free": "Свободных фишек: {n}",
  "false-poker.yourMove": "Положите карту в конец ряда (щёлкните её) или скажите СТОП, если в ряду есть повтор.",
  "false-poker.noMarker": "Все ваши фишки уже в ряду: скажите СТОП.",
  "false-poker.check": "Проверяйте ряд: нет ли двух пар соседей с одинаковым общим символом?",
  "false-poker.stop": "СТОП",
  "false-poker.feed.repeat#one": "{name} теряет {n} фишку: его карта повторяет общий символ {symbol}",
  "false-poker.feed.repeat#few": "{name} теряет {n} фишки: его карта повторяет общий символ {symbol}",
  "false-poker.feed.repeat#many": "{name} теряет {n} фишек: его карта повторяет общий символ {symbol}",
  "false-poker.feed.repeat#other": "{name} теряет {n} фишки: его карта повторяет общий символ {symbol}",
  "false-poker.feed.repeat.you#one": "Вы теряете {n} фишку: ваша карта повторяет общий символ {symbol}",
  "false-poker.feed.repeat.you#few": "Вы теряете {n} фишки: ваша карта повторяет общий символ {symbol}",
  "false-poker.feed.repeat.you#many": "Вы теряете {n} фишек: ваша карта повторяет общий символ {symbol}",
  "false-poker.feed.repeat.you#other": "Вы теряете {n} фишки: ваша карта повторяет общий символ {symbol}",
  "false-poker.feed.noRepeat#one": "{name} теряет {n} фишку: в ряду ни один общий символ не повторяется",
  "false-poker.feed.noRepeat#few": "{name} теряет {n} фишки: в ряду ни один общий символ не повторяется",
  "false-poker.feed.noRepeat#many": "{name} теряет {n} фишек: в ряду ни один общий символ не повторяется",
  "false-poker.feed.noRepeat#other": "{name} теряет {n} фишки: в ряду ни один общий символ не повторяется",
  "false-poker.feed.noRepeat.you#one": "Вы теряете {n} фишку: в ряду ни один общий символ не повторяется",
  "false-poker.feed.noRepeat.you#few": "Вы теряете {n} фишки: в ряду ни один общий символ не повторяется",
  "false-poker.feed.noRepeat.you#many": "Вы теряете {n} фишек: в ряду ни один общий символ не повторяется",
  "false-poker.feed.noRepeat.you#other": "Вы теряете {n} фишки: в ряду ни один общий символ не повторяется",
  "false-poker.feed.lay": "{name} кладёт карту",
  "false-poker.feed.lay.you": "Вы кладёте карту",
  "false-poker.feed.stop": "{name} говорит СТОП",
  "false-poker.feed.stop.you": "Вы говорите СТОП",
  "false-poker.feed.outOfTime": "У игрока {name} кончилось время: он выбывает из раунда",
  "false-poker.feed.outOfTime.you": "У вас кончилось время: вы выбываете из раунда",
  "false-poker.feed.markers#one": "{name} теряет {n} фишку",
  "false-poker.feed.markers#few": "{name} теряет {n} фишки",
  "false-poker.feed.markers#many": "{name} теряет {n} фишек",
  "false-poker.feed.markers#other": "{name} теряет {n} фишки",
  "false-poker.feed.markers.you#one": "Вы теряете {n} фишку",
  "false-poker.feed.markers.you#few": "Вы теряете {n} фишки",
  "false-poker.feed.markers.you#many": "Вы теряете {n} фишек",
  "false-poker.feed.markers.you#other": "Вы теряете {n} фишки",
  "false-poker.keys.moveCards": "переход между своими картами",
  "false-poker.keys.lay": "выложить карту",
  "false-poker.keys.stop": "сказать «СТОП»",
};

const zh = {
  "false-poker.row#other": "这一排：{n} 张牌",
  "false-poker.laidBy": "{name} 放的",
  "false-poker.hand": "你的手牌",
  "false-poker.lay": "把这张牌放到这一排末尾",
  "false-poker.free": "可用标记：{n}",
  "false-poker.yourMove": "把一张牌放到这一排末尾（点击它），如果有重复就喊「停」。",
  "false-poker.noMarker": "你的标记都在这一排上：喊「停」。",
  "false-poker.check": "检查这一排：是否有两对相邻牌的共同符号相同？",
  "false-poker.stop": "停",
  "false-poker.feed.repeat#other": "{name} 失去 {n} 个标记：其放下的牌重复了共同符号 {symbol}",
  "false-poker.feed.repeat.you#other": "你失去 {n} 个标记：你放下的牌重复了共同符号 {symbol}",
  "false-poker.feed.noRepeat#other": "{name} 失去 {n} 个标记：这一排没有重复的共同符号",
  "false-poker.feed.noRepeat.you#other": "你失去 {n} 个标记：这一排没有重复的共同符号",
  "false-poker.feed.lay": "{name} 放了一张牌",
  "false-poker.feed.lay.you": "你放了一张牌",
  "false-poker.feed.stop": "{name} 喊了「停」",
  "false-poker.feed.stop.you": "你喊了「停」",
  "false-poker.feed.outOfTime": "{name} 超时，本轮出局",
  "false-poker.feed.outOfTime.you": "你超时了，本轮出局",
  "false-poker.feed.markers#other": "{name} 失去 {n} 个标记",
  "false-poker.feed.markers.you#other": "你失去 {n} 个标记",
  "false-poker.keys.moveCards": "在手牌间移动",
  "false-poker.keys.lay": "打出这张牌",
  "false-poker.keys.stop": "喊“停”",
};

const it = {
  "false-poker.row#one": "La fila: {n} carta",
  "false-poker.row#many": "La fila: {n} di carte",
  "false-poker.row#other": "La fila: {n} carte",
  "false-poker.laidBy": "Messa da {name}",
  "false-poker.hand": "La tua mano",
  "false-poker.lay": "Metti questa carta in fondo alla fila",
  "false-poker.free": "Segnalini liberi: {n}",
  "false-poker.yourMove": "Metti una carta in fondo alla fila (cliccala), oppure di' STOP se la fila ha una ripetizione.",
  "false-poker.noMarker": "Tutti i tuoi segnalini sono sulla fila: di' STOP.",
  "false-poker.check": "Controlla la fila: due coppie di vicine hanno lo stesso simbolo comune?",
  "false-poker.stop": "STOP",
  "false-poker.feed.repeat#one": "{name} perde {n} segnalino: la sua carta ripete il simbolo in comune {symbol}",
  "false-poker.feed.repeat#many": "{name} perde {n} di segnalini: la sua carta ripete il simbolo in comune {symbol}",
  "false-poker.feed.repeat#other": "{name} perde {n} segnalini: la sua carta ripete il simbolo in comune {symbol}",
  "false-poker.feed.repeat.you#one": "Perdi {n} segnalino: la tua carta ripete il simbolo in comune {symbol}",
  "false-poker.feed.repeat.you#many": "Perdi {n} di segnalini: la tua carta ripete il simbolo in comune {symbol}",
  "false-poker.feed.repeat.you#other": "Perdi {n} segnalini: la tua carta ripete il simbolo in comune {symbol}",
  "false-poker.feed.noRepeat#one": "{name} perde {n} segnalino: nessun simbolo in comune si ripete nella fila",
  "false-poker.feed.noRepeat#many": "{name} perde {n} di segnalini: nessun simbolo in comune si ripete nella fila",
  "false-poker.feed.noRepeat#other": "{name} perde {n} segnalini: nessun simbolo in comune si ripete nella fila",
  "false-poker.feed.noRepeat.you#one": "Perdi {n} segnalino: nessun simbolo in comune si ripete nella fila",
  "false-poker.feed.noRepeat.you#many": "Perdi {n} di segnalini: nessun simbolo in comune si ripete nella fila",
  "false-poker.feed.noRepeat.you#other": "Perdi {n} segnalini: nessun simbolo in comune si ripete nella fila",
  "false-poker.feed.lay": "{name} ha messo una carta",
  "false-poker.feed.lay.you": "Hai messo una carta",
  "false-poker.feed.stop": "{name} ha detto STOP",
  "false-poker.feed.stop.you": "Hai detto STOP",
  "false-poker.feed.outOfTime": "{name} ha finito il tempo ed è fuori dal round",
  "false-poker.feed.outOfTime.you": "Hai finito il tempo e sei fuori dal round",
  "false-poker.feed.markers#one": "{name} perde {n} segnalino",
  "false-poker.feed.markers#many": "{name} perde {n} di segnalini",
  "false-poker.feed.markers#other": "{name} perde {n} segnalini",
  "false-poker.feed.markers.you#one": "Perdi {n} segnalino",
  "false-poker.feed.markers.you#many": "Perdi {n} di segnalini",
  "false-poker.feed.markers.you#other": "Perdi {n} segnalini",
  "false-poker.keys.moveCards": "spostarsi tra le tue carte",
  "false-poker.keys.lay": "cala la carta",
  "false-poker.keys.stop": "di' STOP",
};

export const texts = { en, pl, da, ru, zh, it };
