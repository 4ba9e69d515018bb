// Game modules. Every game whose play is claims is drawn by the common
// table (table.js), which reads what a claim is from the game's declared
// claim (GET /api/games). A game with its own kinds of action (turns, a
// palette to write from, a row to lay on, tokens to take) adds a module,
// games/NAME.js, named after the game's canonical name and loaded only
// when the game is shown; a game without one (the server answers 404) is
// played on the common table. A module exports what it needs of these,
// each optional:
//
//   draw(el, ctx)          draws the whole table into el (extra.js's
//                          drawOwn calls it), instead of the common table;
//   panel(ctx)             an element shown above the common table;
//   symbol(ctx, zone, s)   what a click (or Enter) on symbol s in zone
//                          does, instead of a claim;
//   cards(view, deck)      the cards the view shows beside its zones' own,
//                          loaded before it is drawn;
//   feed(e, f)             adds the feed's line for event e, returning
//                          true when it did (f: evs, the update's events;
//                          view, the view before them; line(key, seat,
//                          more), a line about a seat, "key.you" when it is
//                          the viewer's; note(key, more), a line about no
//                          seat; sessionSeat(gs), a table seat's seat in
//                          the session; symbolsOf(card), the symbols on a
//                          card whose face is loaded, else null);
//   keys(me)               the play screen's footer parts for a seated
//                          viewer (sound is added), instead of a claim's;
//   letters                {letter: fn(ctx)}: what a letter key does;
//   texts                  {lang: {key: text}}: the module's interface
//                          texts in every language the client speaks
//                          (i18n.js's LANGS), each key beginning with the
//                          game's name ("memory.grid"); they are added to
//                          the client's (addTexts) when the module is
//                          loaded, so t finds them like any other.
//                          web/i18n_test.go checks every language has
//                          every key.
//
// ctx is what app.js gives a module to draw from and act through: view,
// deck, me (the viewer's table seat, -1 for a spectator), names(seat),
// away(seat) (whether the seat's person has lost their connection, the
// seat held for them), sel (the selection kept between draws), choose (the choice of zone
// offered), act(type, fields), select(patch), offer(zones, fields),
// pick(zone) and symbol(zone, symbol).
//
// A new game with its own table adds its module and nothing else: its
// code and its texts are in games/NAME.js, fetched once, when the game is
// first shown.

import { addTexts } from "./i18n.js";

const modules = new Map();

// loadGame loads the module of game name, once, and adds its texts; it
// resolves to the module, or to null for a game played on the common
// table.
export function loadGame(name) {
  if (!modules.has(name)) {
    const p = /^[a-z0-9]+(-[a-z0-9]+)*$/.test(name || "")
      ? import(`./games/${name}.js`).catch(() => null)
      : Promise.resolve(null);
    modules.set(name, p.then((m) => {
      if (m && m.texts) addTexts(m.texts);
      modules.set(name, m);
      return m;
    }));
  }
  return Promise.resolve(modules.get(name));
}

// gameModule returns the module of game name once loadGame has loaded it,
// else null.
export function gameModule(name) {
  const m = modules.get(name);
  return m && !(m instanceof Promise) ? m : null;
}

// gameLoaded reports whether loadGame has settled for game name: whether
// the game is known to have a module or to have none.
export function gameLoaded(name) {
  return modules.has(name) && !(modules.get(name) instanceof Promise);
}
