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
    ? h("div", { class: "zone xfifth", "data-zone": fifthZ.zone, "data-kind": "centre" }, face(ctx, fifth.card, "big", writing), h("div", { class: "zlabel" }, t("reflection.fifth")))
    : h("div", { class: "zone xfifth" }, back("big"), h("div", { class: "zlabel" }, t("reflection.fifth")));
  const sheet = h("div", { class: "xsheet", id: "answers", "aria-label": t("reflection.sheet") },
    h("span", null, t("reflection.yours", { n: answers.length })),
    [0, 1, 2, 3].map((i) => (answers[i] !== undefined ? chip(deck, answers[i], { cls: "answer" }) : h("span", { class: "chip blank" }, "?"))));
  const palette = writing && fifth
    ? h("div", { class: "xpalette", id: "palette", role: "group", "aria-label": t("reflection.palette") },
      fifth.symbols.map((s) => chip(deck, s, { id: `write-${s}`, onclick: () => ctx.act("write", { symbol: s }), label: t("reflection.write", { symbol: symbolName(deck, s) }) })))
    : null;
  let lastEl = null;
  if (x.last) {
    const l = x.last;
    lastEl = h("div", { class: "xround", id: "last-round" },
      h("p", null, t("reflection.shared", { n: l.round })), h("div", { class: "xpalette" }, (l.shared || []).map((s) => chip(deck, s))),
      h("ul", null, (l.answers || []).map((a, s) => h("li", null, t("reflection.scored", { name: ctx.names(s), n: (l.points || [])[s] || 0 }), " ",
        (a || []).map((sym) => h("span", { class: `tag${(l.shared || []).includes(sym) ? " good" : ""}` }, symbolName(deck, sym)))))));
  }
  append(el,
    seatsBar(ctx, (s) => h("span", { class: "badge" }, t("reflection.written", { n: (x.written || [])[s] || 0 }))),
    h("p", { id: "phase", class: `turnline phase-${phase}`, role: "status", "data-phase": phase }, t(`reflection.${phase}`), " ", clock(view)),
    h("div", { class: "xrow" }, h("div", { class: "xfour" }, four), fifthEl),
    phase === "answer" && me >= 0 ? sheet : null,
    palette,
    lastEl);
}

// feed says what was written, which phase begins and the points scored.
export function feed(e, f) {
  switch (e.kind) {
    case "write":
      f.line("reflection.feed.write", e.seat, e.symbol >= 0 ? { symbol: e.symbol } : {});
      return true;
    case "phase":
      f.note(`reflection.feed.phase${e.count}`);
      return true;
    case "score":
      f.line("reflection.feed.points", e.seat, { n: e.count });
      return true;
    default:
      return false;
  }
}

// keys: a symbol is written.
export function keys() {
  return [["move", ["Tab", "←→"], "keys.move"], ["act", enterKeys(), "reflection.keys.write"]];
}

// The module's texts in every language the client speaks (i18n.js's
// LANGS), added to the client's when the module is loaded. Every key
// begins with the game's name.

const en = {
  "reflection.fifth": "The fifth card",
  "reflection.sheet": "Your answer sheet",
  "reflection.yours": "Your answers ({n} of 4):",
  "reflection.palette": "Symbols of the fifth card",
  "reflection.write": "Write {symbol}",
  "reflection.shared": "Round {n}: the fifth card shared",
  "reflection.scored#one": "{name}: {n} point",
  "reflection.scored#other": "{name}: {n} points",
  "reflection.written": "✎ {n}/4",
  "reflection.look": "Look at the fifth card",
  "reflection.study": "Memorise the four cards",
  "reflection.answer": "Which symbol does the fifth card share with each of the four? Write them",
  "reflection.feed.write": "{name} wrote a symbol",
  "reflection.feed.write.you": "You wrote {symbol}",
  "reflection.feed.phase0": "Look at the fifth card",
  "reflection.feed.phase1": "Study the four cards",
  "reflection.feed.phase2": "Write your answers",
  "reflection.feed.points#one": "{name} scores {n} point",
  "reflection.feed.points#other": "{name} scores {n} points",
  "reflection.feed.points.you#one": "You score {n} point",
  "reflection.feed.points.you#other": "You score {n} points",
  "reflection.keys.write": "write the symbol",
};

const pl = {
  "reflection.fifth": "Piąta karta",
  "reflection.sheet": "Twoja karta odpowiedzi",
  "reflection.yours": "Twoje odpowiedzi ({n} z 4):",
  "reflection.palette": "Symbole piątej karty",
  "reflection.write": "Zapisz: {symbol}",
  "reflection.shared": "Runda {n}: wspólne symbole piątej karty",
  "reflection.scored#one": "{name}: {n} punkt",
  "reflection.scored#few": "{name}: {n} punkty",
  "reflection.scored#many": "{name}: {n} punktów",
  "reflection.scored#other": "{name}: {n} punktu",
  "reflection.written": "✎ {n}/4",
  "reflection.look": "Spójrz na piątą kartę",
  "reflection.study": "Zapamiętaj cztery karty",
  "reflection.answer": "Jaki symbol piąta karta ma wspólny z każdą z czterech? Zapisz je",
  "reflection.feed.write": "{name} zapisuje symbol",
  "reflection.feed.write.you": "Zapisujesz: {symbol}",
  "reflection.feed.phase0": "Spójrz na piątą kartę",
  "reflection.feed.phase1": "Zapamiętaj cztery karty",
  "reflection.feed.phase2": "Zapisz odpowiedzi",
  "reflection.feed.points#one": "{name} zdobywa {n} punkt",
  "reflection.feed.points#few": "{name} zdobywa {n} punkty",
  "reflection.feed.points#many": "{name} zdobywa {n} punktów",
  "reflection.feed.points#other": "{name} zdobywa {n} punktu",
  "reflection.feed.points.you#one": "Zdobywasz {n} punkt",
  "reflection.feed.points.you#few": "Zdobywasz {n} punkty",
  "reflection.feed.points.you#many": "Zdobywasz {n} punktów",
  "reflection.feed.points.you#other": "Zdobywasz {n} punktu",
  "reflection.keys.write": "zapisz symbol",
};

const da = {
  "reflection.fifth": "Det femte kort",
  "reflection.sheet": "Dit svarark",
  "reflection.yours": "Dine svar ({n} af 4):",
  "reflection.palette": "Det femte korts symboler",
  "reflection.write": "Skriv {symbol}",
  "reflection.shared": "Runde {n}: det femte kort havde fælles",
  "reflection.scored#one": "{name}: {n} point",
  "reflection.scored#other": "{name}: {n} point",
  "reflection.written": "✎ {n}/4",
  "reflection.look": "Se på det femte kort",
  "reflection.study": "Husk de fire kort",
  "reflection.answer": "Hvilket symbol har det femte kort fælles med hvert af de fire? Skriv dem",
  "reflection.feed.write": "{name} skrev et symbol",
  "reflection.feed.write.you": "Du skrev {symbol}",
  "reflection.feed.phase0": "Se på det femte kort",
  "reflection.feed.phase1": "Studér de fire kort",
  "reflection.feed.phase2": "Skriv dine svar",
  "reflection.feed.points#one": "{name} får {n} point",
  "reflection.feed.points#other": "{name} får {n} point",
  "reflection.feed.points.you#one": "Du får {n} point",
  "reflection.feed.points.you#other": "Du får {n} point",
  "reflection.keys.write": "skriv symbolet",
};

const ru = {
  "reflection.fifth": "Пятая карта",
  "reflection.sheet": "Ваш лист ответов",
  "reflection.yours": "Ваши ответы ({n} из 4):",
  "reflection.palette": "Символы пятой карты",
  "reflection.write": "Записать: {symbol}",
  "reflection.shared": "Раунд {n}: общие символы пятой карты",
  "reflection.scored#one": "{name}: {n} очко",
  "reflection.scored#few": "{name}: {n} очка",
  "reflection.scored#many": "{name}: {n} очков",
  "reflection.scored#other": "{name}: {n} очка",
  "reflection.written": "✎ {n}/4",
  "reflection.look": "Посмотрите на пятую карту",
  "reflection.study": "Запомните четыре карты",
  "reflection.answer": "Какой символ у пятой карты общий с каждой из четырёх? Запишите их",
  "reflection.feed.write": "{name} записывает символ",
  "reflection.feed.write.you": "Вы записали: {symbol}",
  "reflection.feed.phase0": "Посмотрите на пятую карту",
  "reflection.feed.phase1": "Изучите четыре карты",
  "reflection.feed.phase2": "Запишите ответы",
  "reflection.feed.points#one": "{name} получает {n} очко",
  "reflection.feed.points#few": "{name} получает {n} очка",
  "reflection.feed.points#many": "{name} получает {n} очков",
  "reflection.feed.points#other": "{name} получает {n} очка",
  "reflection.feed.points.you#one": "Вы получаете {n} очко",
  "reflection.feed.points.you#few": "Вы получаете {n} очка",
  "reflection.feed.points.you#many": "Вы получаете {n} очков",
  "reflection.feed.points.you#other": "Вы получаете {n} очка",
  "reflection.keys.write": "записать символ",
};

const zh = {
  "reflection.fifth": "第五张牌",
  "reflection.sheet": "你的答题卡",
  "reflection.yours": "你的答案（{n}/4）：",
  "reflection.palette": "第五张牌的符号",
  "reflection.write": "写下 {symbol}",
  "reflection.shared": "第 {n} 轮：第五张牌的共同符号",
  "reflection.scored#other": "{name}：{n} 分",
  "reflection.written": "✎ {n}/4",
  "reflection.look": "看第五张牌",
  "reflection.study": "记住这四张牌",
  "reflection.answer": "第五张牌与这四张各有哪个共同符号？写下来",
  "reflection.feed.write": "{name} 写了一个符号",
  "reflection.feed.write.you": "你写了 {symbol}",
  "reflection.feed.phase0": "看第五张牌",
  "reflection.feed.phase1": "记住这四张牌",
  "reflection.feed.phase2": "写下你的答案",
  "reflection.feed.points#other": "{name} 得到 {n} 分",
  "reflection.feed.points.you#other": "你得到 {n} 分",
  "reflection.keys.write": "写下该图案",
};

const it = {
  "reflection.fifth": "La quinta carta",
  "reflection.sheet": "Il tuo foglio delle risposte",
  "reflection.yours": "Le tue risposte ({n} su 4):",
  "reflection.palette": "Simboli della quinta carta",
  "reflection.write": "Scrivi {symbol}",
  "reflection.shared": "Round {n}: la quinta carta aveva in comune",
  "reflection.scored#one": "{name}: {n} punto",
  "reflection.scored#many": "{name}: {n} di punti",
  "reflection.scored#other": "{name}: {n} punti",
  "reflection.written": "✎ {n}/4",
  "reflection.look": "Guarda la quinta carta",
  "reflection.study": "Memorizza le quattro carte",
  "reflection.answer": "Quale simbolo ha in comune la quinta carta con ciascuna delle quattro? Scrivili",
  "reflection.feed.write": "{name} ha scritto un simbolo",
  "reflection.feed.write.you": "Hai scritto {symbol}",
  "reflection.feed.phase0": "Guarda la quinta carta",
  "reflection.feed.phase1": "Studia le quattro carte",
  "reflection.feed.phase2": "Scrivi le risposte",
  "reflection.feed.points#one": "{name} fa {n} punto",
  "reflection.feed.points#many": "{name} fa {n} di punti",
  "reflection.feed.points#other": "{name} fa {n} punti",
  "reflection.feed.points.you#one": "Fai {n} punto",
  "reflection.feed.points.you#many": "Fai {n} di punti",
  "reflection.feed.points.you#other": "Fai {n} punti",
  "reflection.keys.write": "scrivi il simbolo",
};

export const texts = { en, pl, da, ru, zh, it };
