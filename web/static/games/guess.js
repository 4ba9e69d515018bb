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

// symbol selects a symbol to guess. The selection remembers the round and
// the version it was made in: it holds for that round alone, and the guess
// names that version, so that a guess aimed at a round that has ended is
// refused as too late (the game takes a guess made against any version of
// the round still on), never scored against the next round's secret.
export function symbol(ctx, zone, s) {
  ctx.select({ guess: s, at: ctx.view.version, round: ctx.view.round });
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
  const sel = ctx.sel.guess !== undefined && ctx.sel.round === view.round && cands.includes(ctx.sel.guess) ? ctx.sel.guess : undefined;
  const at = ctx.sel.at;
  const can = me >= 0 && !hosting && !out && !view.over;
  const lastFlip = flips.length ? flips[flips.length - 1] : null;
  const lastCard = lastFlip && turned ? turned.cards[flips.length - 1] : null;
  const host = x.host >= 0
    ? (hosting ? h("p", { id: "host", class: "xhost mine" }, t("guess.youHost"), " ", chip(deck, x.secret, { cls: "secret" }))
      : h("p", { id: "host", class: "xhost" }, t("guess.hosts", { name: ctx.names(x.host) })))
    : h("p", { id: "host", class: "xhost" }, t("guess.serverHosts"));
  const elim = new Set(x.eliminated || []);
  const candSet = new Set(cands);
  const n = deckSymbols(deck);
  const palette = h("div", {
    class: "xpalette guess", id: "candidates", role: "group",
    "aria-label": t(hosting ? "guess.hostCandidates" : "guess.candidates", { n: cands.length }),
  },
    [...Array(n).keys()].map((s) => {
      const cls = `${elim.has(s) ? "out" : candSet.has(s) ? "cand" : "no"}${s === sel ? " sel" : ""}`;
      if (s === secret) {
        return chip(deck, s, {
          cls: `${cls} secret`, id: "cand-secret", tag: t("guess.secretTag"),
          label: t("guess.secretMark", { symbol: symbolName(deck, s) }),
        });
      }
      return can && candSet.has(s)
        ? chip(deck, s, { cls, id: `cand-${s}`, onclick: () => symbol(ctx, -1, s) })
        : chip(deck, s, { cls });
    }));
  append(el,
    seatsBar(ctx, (s) => (x.host === s ? h("span", { class: "badge" }, t("guess.host")) : (x.out || []).includes(s) ? h("span", { class: "badge off" }, t("extra.out")) : null)),
    host,
    h("p", { id: "next-card", class: "turnline", role: "status" }, t("guess.next"), " ", clock(view)),
    h("div", { class: "xrow" },
      lastCard ? h("div", { class: "zone xturned", "data-zone": turned.zone, "data-kind": "turned" },
        face(ctx, lastCard.card, "big", can),
        h("p", { id: "flip-says", class: `says ${lastFlip.secret ? "yes" : "no"}` }, t(lastFlip.secret ? "guess.onIt" : "guess.notOnIt")),
        lastFlip.eliminated >= 0 ? h("p", { class: "says" }, t("guess.eliminated"), " ", chip(deck, lastFlip.eliminated, { cls: "out" })) : null)
        : h("div", { class: "zone xturned" }, back("big"), h("p", { class: "says" }, t("guess.firstCard"))),
      h("div", { class: "xflips", "aria-label": t("guess.turned", { n: flips.length }) },
        flips.slice(0, -1).slice(-8).map((f, i, a) => {
          const c = turned.cards[flips.length - 1 - a.length + i];
          return h("div", { class: `xflip ${f.secret ? "yes" : "no"}` }, c ? face(ctx, c.card, "small", false) : back("small"));
        }))),
    h("p", { id: "guess-hint", class: `xhint${hosting ? " hosting" : ""}` },
      out ? t("guess.youOut") : hosting ? t("guess.hostHint") : t("guess.count", { n: cands.length })),
    palette,
    can ? h("div", { class: "row actions" },
      h("button", {
        id: "guess", class: "primary", disabled: sel === undefined,
        onclick: () => { if (sel !== undefined) ctx.act("guess", { symbol: sel, version: at }); },
      }, sel === undefined ? t("guess.pick") : t("guess.btn", { symbol: symbolName(deck, sel) }))) : null,
    x.last >= 0 ? h("p", { id: "last-secret", class: "xhint" }, t("guess.lastSecret"), " ", chip(deck, x.last)) : null);
}

// feed says what each card turned tells, the guesses and the secret.
export function feed(e, f) {
  switch (e.kind) {
    case "flip":
      if (e.seat < 0) f.note(e.count ? "guess.feed.cardYes" : "guess.feed.cardNo");
      return true;
    case "guess":
      f.line(e.count ? "guess.feed.guessRight" : "guess.feed.guessWrong", e.seat, { symbol: e.symbol });
      return true;
    case "secret":
      if (e.seat < 0) f.note("guess.feed.secret", { symbol: e.symbol });
      return true;
    case "out":
      return true;
    default:
      return false;
  }
}

// keys: a symbol is picked, then guessed with the Guess button.
export function keys() {
  return [["move", ["Tab", "←→"], "keys.move"], ["act", enterKeys(), "guess.keys.pick"]];
}

// The module's texts in every language the client speaks (i18n.js's
// LANGS), added to the client's when the module is loaded. Every key
// begins with the game's name.

const en = {
  "guess.youHost": "You host this round. The secret is",
  "guess.hosts": "{name} hosts this round and knows the secret.",
  "guess.serverHosts": "The game hosts: everyone guesses.",
  "guess.candidates": "Symbols that may be the secret: {n}",
  "guess.host": "host",
  "guess.next": "Next card in",
  "guess.onIt": "The secret is on this card",
  "guess.notOnIt": "The secret is not on this card",
  "guess.eliminated": "Crossed out:",
  "guess.firstCard": "The first card is coming…",
  "guess.turned": "Cards turned: {n}",
  "guess.youOut": "You guessed wrong: wait for the next round.",
  "guess.hostHint": "You know the secret, so you don't guess this round: the others do. It is marked below; watch them close in on it.",
  "guess.secretTag": "secret",
  "guess.secretMark": "{symbol}: the secret, which only you see",
  "guess.hostCandidates": "Symbols the others may still guess: {n}",
  "guess.count": "Still possible: {n} symbols. Pick one, then guess.",
  "guess.pick": "Pick a symbol to guess",
  "guess.btn": "Guess {symbol}",
  "guess.lastSecret": "Last round's secret:",
  "guess.feed.cardYes": "A card turned: the secret is on it",
  "guess.feed.cardNo": "A card turned: the secret is not on it",
  "guess.feed.guessRight": "{name} guessed {symbol}: right!",
  "guess.feed.guessRight.you": "You guessed {symbol}: right!",
  "guess.feed.guessWrong": "{name} guessed {symbol}: wrong",
  "guess.feed.guessWrong.you": "You guessed {symbol}: wrong",
  "guess.feed.secret": "The secret was {symbol}",
  "guess.keys.pick": "pick the symbol",
};

const pl = {
  "guess.youHost": "Prowadzisz tę rundę. Sekret to",
  "guess.hosts": "{name} prowadzi tę rundę i zna sekret.",
  "guess.serverHosts": "Prowadzi gra: zgadują wszyscy.",
  "guess.candidates": "Symbole, które mogą być sekretem: {n}",
  "guess.host": "prowadzi",
  "guess.next": "Następna karta za",
  "guess.onIt": "Sekret jest na tej karcie",
  "guess.notOnIt": "Sekretu nie ma na tej karcie",
  "guess.eliminated": "Skreślony:",
  "guess.firstCard": "Zaraz pierwsza karta…",
  "guess.turned": "Odkryte karty: {n}",
  "guess.youOut": "Pomyłka: poczekaj na następną rundę.",
  "guess.hostHint": "Znasz sekret, więc w tej rundzie nie zgadujesz: zgadują inni. Jest zaznaczony poniżej; patrz, jak się do niego zbliżają.",
  "guess.secretTag": "sekret",
  "guess.secretMark": "{symbol}: sekret, który widzisz tylko ty",
  "guess.hostCandidates": "Symbole, które inni mogą jeszcze typować: {n}",
  "guess.count": "Wciąż możliwe symbole: {n}. Wybierz jeden i zgadnij.",
  "guess.pick": "Wybierz symbol do zgadnięcia",
  "guess.btn": "Zgaduję: {symbol}",
  "guess.lastSecret": "Sekret poprzedniej rundy:",
  "guess.feed.cardYes": "Odkryta karta: sekret jest na niej",
  "guess.feed.cardNo": "Odkryta karta: sekretu na niej nie ma",
  "guess.feed.guessRight": "{name} zgaduje {symbol}: trafnie!",
  "guess.feed.guessRight.you": "Zgadujesz {symbol}: trafnie!",
  "guess.feed.guessWrong": "{name} zgaduje {symbol}: pudło",
  "guess.feed.guessWrong.you": "Zgadujesz {symbol}: pudło",
  "guess.feed.secret": "Sekretem było: {symbol}",
  "guess.keys.pick": "wybierz symbol",
};

const da = {
  "guess.youHost": "Du er vært i denne runde. Hemmeligheden er",
  "guess.hosts": "{name} er vært i denne runde og kender hemmeligheden.",
  "guess.serverHosts": "Spillet er vært: alle gætter.",
  "guess.candidates": "Symboler, der kan være hemmeligheden: {n}",
  "guess.host": "vært",
  "guess.next": "Næste kort om",
  "guess.onIt": "Hemmeligheden står på dette kort",
  "guess.notOnIt": "Hemmeligheden står ikke på dette kort",
  "guess.eliminated": "Streget ud:",
  "guess.firstCard": "Det første kort kommer…",
  "guess.turned": "Vendte kort: {n}",
  "guess.youOut": "Du gættede forkert: vent på næste runde.",
  "guess.hostHint": "Du kender hemmeligheden, så du gætter ikke i denne runde: det gør de andre. Den er markeret herunder; se dem komme tættere på.",
  "guess.secretTag": "hemmelig",
  "guess.secretMark": "{symbol}: hemmeligheden, som kun du ser",
  "guess.hostCandidates": "Symboler, de andre stadig kan gætte på: {n}",
  "guess.count": "Stadig muligt: {n} symboler. Vælg et, og gæt så.",
  "guess.pick": "Vælg et symbol at gætte på",
  "guess.btn": "Gæt {symbol}",
  "guess.lastSecret": "Sidste rundes hemmelighed:",
  "guess.feed.cardYes": "Et kort vendt: hemmeligheden står på det",
  "guess.feed.cardNo": "Et kort vendt: hemmeligheden står ikke på det",
  "guess.feed.guessRight": "{name} gættede {symbol}: rigtigt!",
  "guess.feed.guessRight.you": "Du gættede {symbol}: rigtigt!",
  "guess.feed.guessWrong": "{name} gættede {symbol}: forkert",
  "guess.feed.guessWrong.you": "Du gættede {symbol}: forkert",
  "guess.feed.secret": "Hemmeligheden var {symbol}",
  "guess.keys.pick": "udpeg symbolet",
};

const ru = {
  "guess.youHost": "Вы ведёте этот раунд. Тайна —",
  "guess.hosts": "{name} ведёт этот раунд и знает тайну.",
  "guess.serverHosts": "Ведёт игра: угадывают все.",
  "guess.candidates": "Символы, которые могут быть тайной: {n}",
  "guess.host": "ведущий",
  "guess.next": "Следующая карта через",
  "guess.onIt": "Тайна есть на этой карте",
  "guess.notOnIt": "Тайны нет на этой карте",
  "guess.eliminated": "Вычеркнут:",
  "guess.firstCard": "Сейчас будет первая карта…",
  "guess.turned": "Открыто карт: {n}",
  "guess.youOut": "Неверно: ждите следующего раунда.",
  "guess.hostHint": "Вы знаете тайну, поэтому в этом раунде не угадываете: угадывают другие. Она отмечена ниже; следите, как они к ней подбираются.",
  "guess.secretTag": "тайна",
  "guess.secretMark": "{symbol}: тайна, её видите только вы",
  "guess.hostCandidates": "Символы, которые другие ещё могут назвать: {n}",
  "guess.count": "Ещё возможно символов: {n}. Выберите один и угадайте.",
  "guess.pick": "Выберите символ",
  "guess.btn": "Угадать: {symbol}",
  "guess.lastSecret": "Тайна прошлого раунда:",
  "guess.feed.cardYes": "Открыта карта: тайна на ней есть",
  "guess.feed.cardNo": "Открыта карта: тайны на ней нет",
  "guess.feed.guessRight": "{name} угадывает {symbol}: верно!",
  "guess.feed.guessRight.you": "Вы угадываете {symbol}: верно!",
  "guess.feed.guessWrong": "{name} угадывает {symbol}: неверно",
  "guess.feed.guessWrong.you": "Вы угадываете {symbol}: неверно",
  "guess.feed.secret": "Тайной был символ {symbol}",
  "guess.keys.pick": "выбрать символ",
};

const zh = {
  "guess.youHost": "本轮由你主持。秘密是",
  "guess.hosts": "{name} 主持本轮，知道秘密。",
  "guess.serverHosts": "由游戏主持：所有人都猜。",
  "guess.candidates": "可能是秘密的符号：{n}",
  "guess.host": "主持",
  "guess.next": "下一张牌还有",
  "guess.onIt": "秘密在这张牌上",
  "guess.notOnIt": "秘密不在这张牌上",
  "guess.eliminated": "划掉：",
  "guess.firstCard": "第一张牌马上翻开…",
  "guess.turned": "已翻开 {n} 张",
  "guess.youOut": "你猜错了：等下一轮。",
  "guess.hostHint": "你知道秘密，所以本轮你不猜：由其他人来猜。秘密已在下方标出；看他们如何逼近它。",
  "guess.secretTag": "秘密",
  "guess.secretMark": "{symbol}：秘密，只有你能看到",
  "guess.hostCandidates": "其他人仍可能猜的符号：{n}",
  "guess.count": "还可能的符号：{n} 个。选一个再猜。",
  "guess.pick": "选一个要猜的符号",
  "guess.btn": "猜 {symbol}",
  "guess.lastSecret": "上一轮的秘密：",
  "guess.feed.cardYes": "翻开一张牌：秘密在上面",
  "guess.feed.cardNo": "翻开一张牌：秘密不在上面",
  "guess.feed.guessRight": "{name} 猜 {symbol}：对了！",
  "guess.feed.guessRight.you": "你猜 {symbol}：对了！",
  "guess.feed.guessWrong": "{name} 猜 {symbol}：错了",
  "guess.feed.guessWrong.you": "你猜 {symbol}：错了",
  "guess.feed.secret": "秘密是 {symbol}",
  "guess.keys.pick": "选中该图案",
};

const it = {
  "guess.youHost": "Conduci tu questo round. Il segreto è",
  "guess.hosts": "{name} conduce questo round e conosce il segreto.",
  "guess.serverHosts": "Conduce il gioco: tutti indovinano.",
  "guess.candidates": "Simboli che possono essere il segreto: {n}",
  "guess.host": "conduce",
  "guess.next": "Prossima carta tra",
  "guess.onIt": "Il segreto è su questa carta",
  "guess.notOnIt": "Il segreto non è su questa carta",
  "guess.eliminated": "Cancellato:",
  "guess.firstCard": "Arriva la prima carta…",
  "guess.turned": "Carte girate: {n}",
  "guess.youOut": "Hai sbagliato: aspetta il prossimo round.",
  "guess.hostHint": "Conosci il segreto, quindi in questo round non indovini: indovinano gli altri. È segnato qui sotto; guarda come ci si avvicinano.",
  "guess.secretTag": "segreto",
  "guess.secretMark": "{symbol}: il segreto, che vedi solo tu",
  "guess.hostCandidates": "Simboli che gli altri possono ancora indovinare: {n}",
  "guess.count": "Ancora possibili: {n} simboli. Scegline uno, poi indovina.",
  "guess.pick": "Scegli un simbolo da indovinare",
  "guess.btn": "Indovino {symbol}",
  "guess.lastSecret": "Il segreto del round precedente:",
  "guess.feed.cardYes": "Carta girata: il segreto c'è",
  "guess.feed.cardNo": "Carta girata: il segreto non c'è",
  "guess.feed.guessRight": "{name} prova {symbol}: giusto!",
  "guess.feed.guessRight.you": "Provi {symbol}: giusto!",
  "guess.feed.guessWrong": "{name} prova {symbol}: sbagliato",
  "guess.feed.guessWrong.you": "Provi {symbol}: sbagliato",
  "guess.feed.secret": "Il segreto era {symbol}",
  "guess.keys.pick": "scegli il simbolo",
};

export const texts = { en, pl, da, ru, zh, it };
