// The dobble browser client: home (nickname, practice, create or join
// a room), lobby, countdown, play, results with the session standings,
// history and replays. It speaks docs/PROTOCOL.md over one WebSocket.

import { h, append, replace, getJSON } from "./dom.js";
import { LANGS, LANG_NAMES, pickLang, setLang, lang, t, gameText, amount } from "./i18n.js";
import { Conn } from "./net.js";
import { sounds, soundOn, setSound } from "./sound.js";
import { useDeck, symbolName, rename, cardSymbols } from "./cards.js";
import { Table, planClaim, claimShows, offClaim, asksTarget, preload, ready } from "./table.js";
import { fitTable, fitOwn } from "./fit.js";
import { drawOwn, enterKeys } from "./extra.js";
import { loadGame, gameModule, gameLoaded } from "./games.js";

const app = document.getElementById("app");

// AIM_MS is how long after the table changes a click still counts as aimed
// at the table before the change.
const AIM_MS = 250;

const S = {
  name: localStorage.getItem("dobble.name") || "",
  conn: null,
  status: "idle",
  rtt: 0, // the round trip the server last measured, in ms (pong), 0 before
  games: null, // GET /api/games, once loaded
  gamesReq: null, // the promise of GET /api/games (loadGames)
  gamesError: null, // why the last GET /api/games failed
  rooms: null, // the promise of GET /api/rooms for the home screen shown (roomsPanel)
  route: parseRoute(),
  room: null,
  notice: "", // a message shown on the home screen
  history: null,
  replay: null,
};

// The chosen language's dictionary is loaded before anything is drawn;
// when it cannot be, English is tried, else the keys are shown.
await setLang(pickLang()).catch(() => setLang("en")).catch(() => {});

function parseRoute() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)\/?$/);
  if (m) return { screen: "home", code: m[1].toUpperCase() };
  const hash = location.hash.slice(1);
  if (hash === "history") return { screen: "history" };
  const r = hash.match(/^replay\/(.+)$/);
  if (r) return { screen: "replay", id: decodeURIComponent(r[1]) };
  return { screen: "home", code: "" };
}

function go(path, hash = "") {
  history.pushState(null, "", path + hash);
  S.route = parseRoute();
  render();
}

window.addEventListener("popstate", () => {
  S.route = parseRoute();
  if (S.route.screen !== "home" || !S.room) render();
});
window.addEventListener("hashchange", () => {
  S.route = parseRoute();
  render();
});

// ---- games, names, connection ----------------------------------------

// loadGames resolves to GET /api/games, fetched once per page load
// however many screens ask for it at once. A failed fetch is kept in
// S.gamesError, and forgotten so that the next call tries again: the
// screens try again only when a person asks for what needs the games,
// never by themselves.
function loadGames() {
  if (!S.gamesReq) {
    S.gamesError = null;
    S.gamesReq = getJSON("/api/games").then((data) => {
      const g = Array.isArray(data) ? { games: data } : data;
      g.editions = g.editions || [];
      g.levels = (g.levels || ["easy", "medium", "hard", "expert"]).map((l) => (typeof l === "string" ? l : l.name));
      S.games = g;
      return g;
    }, (err) => {
      S.gamesReq = null;
      S.gamesError = err;
      throw err;
    });
  }
  return S.gamesReq;
}

// gamesFailed shows on the home screen why GET /api/games failed.
function gamesFailed(err) {
  S.notice = t("err.http", { message: err.message });
  render();
}

function gameInfo(name) {
  const gs = (S.games && S.games.games) || [];
  return gs.find((g) => g.name === name || (g.aliases || []).includes(name)) || { name, targets: 0, title: name };
}

// hasClaims reports whether a game is played with claims (the extra
// mini-games of turns and phases are not).
function hasClaims(name) {
  const acts = gameInfo(name).acts;
  return !acts || acts.includes("claim");
}

// gameTitle is a game's title in the chosen language, else in English,
// else as its Info names it.
function gameTitle(name) {
  const info = gameInfo(name);
  return gameText(info, (x) => x.title) || info.title || name;
}

// gameRule is a game's rule in a sentence or two, in the chosen language
// or else in English; "" for a game without texts.
function gameRule(name) {
  return gameText(gameInfo(name), (x) => x.rule) || "";
}

// A seat's token is kept in localStorage under its room's code, so that
// the share link opened again (in another tab, after the browser was
// closed) can offer the seat back: {token, seat, tab}, tab naming the tab
// that holds the seat now (its id lives in the tab's sessionStorage). A
// reload of that tab takes the seat back at once; another tab asks first,
// as taking the seat closes it in the tab that held it.
function tokenKey(code) { return `dobble.seat.${code}`; }

const TAB = sessionStorage.getItem("dobble.tab") || Math.random().toString(36).slice(2);
sessionStorage.setItem("dobble.tab", TAB);

// heldSeat returns the stored seat of room code ({token, seat, tab}), or
// null.
function heldSeat(code) {
  try {
    const v = JSON.parse(localStorage.getItem(tokenKey(code)) || "null");
    return v && typeof v.token === "string" ? v : null;
  } catch {
    return null;
  }
}

function keepSeat(code, token, seat) {
  localStorage.setItem(tokenKey(code), JSON.stringify({ token, seat, tab: TAB, at: Date.now() }));
}

// SEAT_KEEP is how long a stored seat is kept, in milliseconds: far longer
// than the server holds a seat whose player has gone.
const SEAT_KEEP = 24 * 60 * 60 * 1000;

// forgetOldSeats removes the stored seats of rooms left long ago.
function forgetOldSeats() {
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const k = localStorage.key(i);
    if (!k || !k.startsWith("dobble.seat.")) continue;
    const v = heldSeat(k.slice("dobble.seat.".length));
    if (!v || !(Date.now() - v.at < SEAT_KEEP)) localStorage.removeItem(k);
  }
}

// dropSeat forgets the stored seat of room code, unless another tab holds
// it now (this tab's seat was resumed there).
function dropSeat(code) {
  const v = heldSeat(code);
  if (v && v.tab !== TAB) return;
  localStorage.removeItem(tokenKey(code));
}

// resumeSeat takes the stored seat of room code back in this tab.
function resumeSeat(code, held) {
  S.room = newRoom(code);
  S.room.token = held.token;
  S.room.seat = held.seat;
  S.route = { screen: "room", code };
  keepSeat(code, held.token, held.seat);
  send({ type: "resume", room: code, token: held.token });
  render();
}

function conn() {
  if (!S.conn) {
    S.conn = new Conn({
      name: S.name,
      lang: lang(),
      onMessage: onMessage,
      onStatus: (st) => { S.status = st; renderStatus(); },
      onReconnect: () => {
        const r = S.room;
        if (!r) return;
        if (r.token) S.conn.send({ type: "resume", room: r.code, token: r.token });
        else if (r.seat < 0) S.conn.send({ type: "watch", room: r.code });
      },
    });
  }
  return S.conn;
}

function send(msg) { conn().send(msg); }

// nameProblem says why the server would refuse a nickname (package
// protocol, cleanName), as the key of its text, or "" when it would take
// it: a name needs a visible character, holds no control or
// text-direction character and does not read as a bot's ("bot:LEVEL").
// The field's maxlength keeps it within the 24 characters.
function nameProblem(name) {
  const chars = [...name];
  if (chars.length === 0) return "home.needName";
  if (chars.some((c) => /[\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u.test(c))) return "home.nameHidden";
  if (!chars.some((c) => /[\p{L}\p{N}\p{P}\p{S}]/u.test(c) && !/\p{Default_Ignorable_Code_Point}/u.test(c) && c !== "\u2800")) return "home.nameBlank";
  const skeleton = name.normalize("NFKC").replace(/[\p{Cf}\p{Mn}\p{Default_Ignorable_Code_Point}]/gu, "").toLowerCase();
  if (skeleton.startsWith("bot:")) return "home.nameBot";
  return "";
}

function needName() {
  const input = document.getElementById("nickname");
  const name = (input ? input.value : S.name).trim();
  const problem = nameProblem(name);
  if (problem) {
    S.notice = t(problem);
    render();
    document.getElementById("nickname")?.focus();
    return false;
  }
  S.name = name;
  localStorage.setItem("dobble.name", name);
  if (S.conn && S.conn.name !== name) { S.conn.close(); S.conn = null; }
  return true;
}

function newRoom(code) {
  return {
    code, seat: -1, token: "", host: false, phase: "lobby", lobby: null,
    deck: "", table: 0, view: null, seats: [], session: null, over: null, pick: null,
    countdownEnd: 0, lockUntil: 0, pending: null, feed: [], choose: null, winner: -1,
    stats: { right: 0, wrong: 0, late: 0 },
    fresh: new Set(), autostart: false, tableUI: null, message: "", sel: {},
  };
}

// ---- messages from the server ----------------------------------------

function onMessage(m) {
  const r = S.room;
  switch (m.type) {
    case "joined": {
      const room = r && r.code === m.room ? r : newRoom(m.room);
      room.autostart = r ? r.autostart : false;
      room.code = m.room;
      room.seat = m.seat;
      room.host = typeof m.host === "number" ? m.host === m.seat && m.seat >= 0 : !!m.host;
      if (m.token) {
        room.token = m.token;
        keepSeat(m.room, m.token, m.seat);
      }
      S.room = room;
      S.notice = "";
      S.watchOnly = "";
      if (location.pathname !== `/r/${m.room}`) history.replaceState(null, "", `/r/${m.room}`);
      S.route = { screen: "room", code: m.room };
      render();
      return;
    }
    case "lobby": {
      if (!r) return;
      r.lobby = m.room;
      r.seats = m.room.seats || r.seats;
      if (typeof m.room.host === "number") r.host = m.room.host === r.seat;
      // A lobby after the session's last game ("over") keeps the results
      // on screen; the host's start is then a rematch.
      if (m.room.phase === "lobby" || (!m.room.phase && r.phase !== "play" && r.phase !== "countdown")) r.phase = "lobby";
      if (r.autostart && r.host) { r.autostart = false; send({ type: "start" }); }
      render();
      return;
    }
    case "countdown": {
      if (!r) return;
      r.countdownEnd = performance.now() + (m.ms || 0);
      if (r.phase === "lobby") r.phase = "countdown";
      runCountdown();
      render();
      return;
    }
    case "state": onState(m); return;
    case "update": onUpdate(m); return;
    case "refused": onRefused(m); return;
    case "over": {
      if (!r) return;
      // A table that ended in a tie for the win is followed by a
      // tie-break: its results stay on screen with the tie-break's.
      const prev = r.lastOver;
      r.earlier = prev && prev.session && prev.session.phase === "tieBreak" ? [...(r.earlier || []), prev] : [];
      r.lastOver = m;
      r.over = m;
      if (m.players) r.players = m.players;
      if (m.session) r.session = m.session;
      r.phase = "over";
      r.choose = null;
      r.countdownEnd = 0;
      sounds.over();
      render();
      return;
    }
    case "pick": {
      if (!r) return;
      r.pick = m;
      // The time left to pick, on the table's clock as the play
      // screen's clocks count.
      if (r.clock !== undefined) r.pick.deadline = performance.now() - r.clock + (m.ms || 0);
      if (r.session) { r.session.picker = m.picker; r.session.choices = m.choices; r.session.phase = "pick"; }
      render();
      runClock();
      return;
    }
    case "presence": {
      if (!r) return;
      for (const s of r.seats) if (s.seat === m.seat) s.connected = m.connected;
      render();
      return;
    }
    case "closed": {
      if (r) dropSeat(r.code);
      S.room = null;
      S.notice = t("err.closed", { reason: m.reason || "" });
      go("/");
      return;
    }
    case "saved": {
      // A finished game the server could not store yet, stored after
      // all, or given up: the note stays on the results and the lobby.
      if (!r) return;
      r.saved = t(`saved.${m.status}`, { game: gameTitle(m.game || "") });
      toast(r.saved, m.status === "stored" ? "" : "miss");
      render();
      return;
    }
    case "error": onError(m); return;
    case "pong": {
      // The round trip the server measured and credits to our claims
      // (docs/PROTOCOL.md, "A fair race").
      if (typeof m.rtt === "number") { S.rtt = m.rtt; renderLatency(); }
      return;
    }
    default:
  }
}

// The latency indicator: every 5 s at a table, a ping asks the server for
// the round trip it measured, which the pong carries.
let latencyTimer = 0;
function watchLatency() {
  if (latencyTimer) return;
  send({ type: "ping", nonce: 0 });
  latencyTimer = setInterval(() => {
    if (!S.room || !S.conn || !S.conn.ready) return;
    S.conn.send({ type: "ping", nonce: 0 });
  }, 5000);
}

// renderLatency shows the round trip on the table, when one is there. The
// line it takes when it first shows moves the table down: on a phone the
// table is sized again to the room left.
function renderLatency() {
  const el = document.getElementById("latency");
  if (!el) return;
  const was = el.textContent;
  el.textContent = S.rtt ? t("play.latency", { ms: S.rtt }) : "";
  el.className = `latency ${S.rtt >= 150 ? "far" : S.rtt >= 60 ? "mid" : "near"}`;
  if (!was !== !el.textContent) refit();
}

function onError(m) {
  const key = `err.${m.code}`;
  const text = t(key, { message: m.message || "" });
  const r = S.room;
  if (m.code === "badToken" && r) {
    dropSeat(r.code);
    const code = r.code;
    S.room = null;
    S.notice = text;
    S.route = { screen: "home", code };
    render();
    return;
  }
  if (r && r.seat !== undefined && S.route.screen === "room" && (r.lobby || r.view)) {
    toast(text, "miss");
    return;
  }
  S.room = null;
  S.notice = text;
  // A join refused as not allowed now: the game of the link has begun (or
  // its seats are taken); the page offers to watch it instead.
  if (m.code === "notAllowed" && r && r.code && !r.token) {
    S.notice = t("home.inProgress");
    S.watchOnly = r.code;
  }
  S.route = { screen: "home", code: S.route.code || "" };
  render();
}

// A table seats the session's seats in the order of its "players" (a
// tie-break seats only the tied ones); views and events use table seats.
function gameSeatOf(r) {
  if (r.seat < 0) return -1;
  if (!r.players) return r.seat;
  return r.players.indexOf(r.seat);
}

function sessionSeatOf(r, gs) {
  return r.players ? r.players[gs] : gs;
}

function seatName(r, sessionSeat) {
  const s = (r.seats || []).find((x) => x.seat === sessionSeat);
  if (!s) return t("home.seat", { n: sessionSeat + 1 });
  if (s.kind === "bot") return storedName(s.name || `bot:${s.level}`);
  if (s.name) return s.name;
  return t("home.seat", { n: sessionSeat + 1 });
}

// seatAway reports whether a person's seat has lost its connection: the
// server holds the seat for a while (--seat-hold) for them to come back.
function seatAway(r, sessionSeat) {
  const s = (r.seats || []).find((x) => x.seat === sessionSeat);
  return !!s && s.kind === "human" && s.connected === false;
}

async function onState(m) {
  let r = S.room;
  if (!r) return;
  r.deck = m.deck;
  r.table = m.table;
  r.players = m.players || null;
  r.clock = performance.now() - (m.elapsed || 0);
  if (m.seats) r.seats = m.seats;
  if (m.session) r.session = m.session;
  r.phase = "play";
  // The game has begun: the countdown's overlay goes now, even when this
  // page's own count (started when its message arrived) has a few
  // milliseconds left, or it would cover the first cards.
  r.countdownEnd = 0;
  r.over = null;
  r.pick = null;
  r.choose = null;
  r.feed = [];
  r.stats = { right: 0, wrong: 0, late: 0 };
  r.winner = -1;
  r.pending = null;
  r.fresh = new Set();
  r.tableUI = null;
  r.sel = {};
  r.view = m.view;
  r.shown = null;
  r.prevShown = null;
  // The game's module (if it has one) says which cards beside the zones'
  // it shows, and the deck's description which card shows a symbol alone
  // (Collect the Symbols' tokens): both are loaded before those cards,
  // or a module that came first would load none of the tokens' pictures,
  // and nothing would load them before the next update.
  const described = useDeck(m.deck);
  await Promise.all([described, loadGame(m.view.game).then(() => described).then(() => preload(m.deck, m.view)).catch(() => {})]);
  if (S.room !== r) return;
  render();
  focusFirstSymbol();
}

function focusFirstSymbol() {
  const g = document.querySelector(".seat.mine g[data-symbol]") || document.querySelector(".table g[tabindex]");
  if (g && !document.activeElement?.matches?.("g[data-symbol], input, select, textarea")) g.focus({ preventScroll: true });
}

async function onUpdate(m) {
  const r = S.room;
  if (!r || !r.view) return;
  if (m.table !== undefined && m.table !== r.table) return;
  if (m.view && m.view.version < r.view.version) return;
  if (typeof m.at === "number") r.clock = Math.min(r.clock ?? Infinity, performance.now() - m.at);
  const me = gameSeatOf(r);
  r.fresh = new Set();
  const game = r.view.game;
  const evs = m.events || [];
  const who = (seat) => (seat === me ? { you: true } : { seat: sessionSeatOf(r, seat) });
  const line = (key, seat, more) => {
    const w = who(seat);
    r.feed.unshift({ key: w.you ? `${key}.you` : key, seat: w.seat, ...more });
  };
  if (evs.length === 1 && evs[0].kind === "turn") {
    // Only the turn passed: the clock ran out on the seat before.
    line("feed.timeUp", evs[0].seat);
  }
  const mod = gameModule(game);
  const f = {
    evs, view: r.view, line,
    note: (key, more) => r.feed.unshift({ key, ...more }),
    sessionSeat: (gs) => sessionSeatOf(r, gs),
    symbolsOf: (card) => cardSymbols(r.deck, card),
  };
  for (const e of evs) {
    if (e.kind === "move" && e.to >= 0) r.fresh.add(e.to);
    if (mod && mod.feed && mod.feed(e, f)) continue;
    if (e.kind === "claim") {
      r.feed.unshift(e.seat === me
        ? { key: "play.youClaimed", symbol: e.symbol }
        : { key: "play.claimed", seat: sessionSeatOf(r, e.seat), symbol: e.symbol });
      r.winner = e.seat;
      if (e.seat === me) {
        r.pending = null;
        r.stats.right++;
        sounds.hit();
        toast(t("play.hit"), "hit");
        flashSymbol(e.symbol, "hit");
      } else {
        sounds.other();
      }
    } else if (e.kind === "move") {
      if (!evs.some((x) => x.kind === "claim") && e.seat >= 0 && gameInfo(game).draw) {
        r.feed.unshift(e.seat === me ? { key: "play.youDrew" } : { key: "play.drew", seat: sessionSeatOf(r, e.seat) });
      }
    } else if (e.kind === "round") {
      r.feed.unshift({ key: "play.newRound", n: e.round });
    }
  }
  r.feed = r.feed.slice(0, 6);
  r.choose = null;
  // A selection belongs to its round: a new round starts with none.
  if (m.view && m.view.round !== r.view.round) r.sel = {};
  if (m.view) r.view = m.view;
  await preload(r.deck, r.view).catch(() => {});
  if (S.room !== r) return;
  render();
}

// feedText says what a line of the feed ({key, seat, symbol, n}) tells,
// in the chosen language and with the names known when it is drawn: a
// line that arrived before the deck's symbol names had loaded names its
// symbol once they have.
function feedText(r, f) {
  return t(f.key, {
    name: f.seat === undefined ? "" : seatName(r, f.seat),
    symbol: f.symbol === undefined ? "" : symbolName(r.deck, f.symbol),
    n: f.n,
    owner: f.owner === undefined ? "" : seatName(r, f.owner),
  });
}

function onRefused(m) {
  const r = S.room;
  if (!r) return;
  r.pending = null;
  // lockedUntil is on the table's clock (ms since the game began).
  const lock = m.lockMs || (m.lockedUntil && r.clock !== undefined ? m.lockedUntil - (performance.now() - r.clock) : 0);
  if (lock > 0) r.lockUntil = performance.now() + lock;
  if (m.code === "tooLate") {
    r.stats.late++;
    sounds.late();
    toast(t("play.late"), "late");
  } else if (m.code === "notAMatch" || m.code === "lockedOut") {
    if (m.code === "notAMatch") r.stats.wrong++;
    sounds.miss();
    toast(m.code === "notAMatch" ? t("play.miss") : t("play.locked"), "miss");
    if (r.lastClaim) flashSymbol(r.lastClaim.symbol, "miss", r.lastClaim.zone);
  } else if (m.code === "badTarget") {
    sounds.miss();
    toast(t("play.badTarget", { reason: m.reason || "" }), "miss");
  } else {
    toast(t(`refused.${m.code}`), "late");
  }
  render();
  if (lock > 0) runLock();
}

// ---- claims ------------------------------------------------------------

function claim(zone, symbol) {
  const r = S.room;
  if (!r || !r.view || r.phase !== "play" || r.view.over) return;
  const me = gameSeatOf(r);
  if (me < 0) return;
  const mod = gameModule(r.view.game);
  if (mod && mod.symbol) {
    // The game's own kind of action: a flip, a write, a pick, a lay.
    const ctx = gameCtx(r);
    if (ctx.view.zones[zone]) mod.symbol(ctx, zone, symbol);
    return;
  }
  const info = gameInfo(r.view.game);
  // Where a claim is only ever about the seat's own card, a symbol
  // elsewhere (another seat's discard pile) names nothing.
  const off = offClaim(r.shown || r.view, info, me, zone);
  if (off) {
    toast(t(off), "late");
    return;
  }
  if (performance.now() < r.lockUntil) {
    toast(t("play.lockedFor", { s: Math.ceil((r.lockUntil - performance.now()) / 1000) }), "miss");
    return;
  }
  // The same symbol again while the server has not answered its claim (a
  // double tap) claims nothing more.
  if (r.pending && r.pending.symbol === symbol) return;
  // A click within AIM_MS of a change of the table was aimed at the table
  // before it: the claim names that version, and the server answers "too
  // late" instead of judging it against cards the player had not seen.
  // The claim is made against the table on screen (which may lag the
  // newest view while its cards load).
  const shown = r.shown || r.view;
  const recent = r.prevShown && performance.now() - r.shownAt < AIM_MS;
  const view = recent && !claimShows(shown, info, me, symbol, zone) && claimShows(r.prevShown, info, me, symbol, zone) ? r.prevShown : shown;
  const plan = planClaim(view, info, me, symbol, zone);
  if (plan.choose) {
    r.choose = { zones: plan.choose, pick: plan.pick, symbol, zone, own: !!plan.own, version: view.version };
    render();
    document.querySelector(".zone.choice")?.focus?.();
    return;
  }
  sendClaim(symbol, plan.target, zone, view.version);
}

function sendClaim(symbol, target, zone, version) {
  const r = S.room;
  r.choose = null;
  r.pending = { symbol };
  r.lastClaim = { symbol, zone };
  send({ type: "claim", table: r.table, symbol, target, version });
  render();
}

function chooseZone(z) {
  const r = S.room;
  if (!r || !r.choose || !r.choose.zones.includes(z)) return;
  if (r.choose.fields) {
    const { type, ...fields } = r.choose.fields;
    sendAct(type, { ...fields, target: [z] });
    return;
  }
  const c = r.choose;
  const plan = c.pick(z);
  if (plan.choose) {
    // The claim names another target the player must choose.
    r.choose = { ...c, zones: plan.choose, pick: plan.pick, own: !!plan.own };
    render();
    document.querySelector(".zone.choice")?.focus?.();
    return;
  }
  sendClaim(c.symbol, plan.target, c.zone, c.version);
}

// sendAct sends a seat's action other than a claim (a flip, a lay, a
// write…) against the table on screen.
function sendAct(type, fields) {
  const r = S.room;
  if (!r || !r.view || r.phase !== "play" || gameSeatOf(r) < 0) return;
  const view = r.shown || r.view;
  r.choose = null;
  if (fields.symbol !== undefined) r.lastClaim = { symbol: fields.symbol };
  send({ type, table: r.table, version: view.version, ...fields });
  render();
}

// gameCtx is what a game's module (games.js) draws from and acts through.
function gameCtx(r) {
  const view = r.shown || r.view;
  return {
    view, deck: r.deck, me: gameSeatOf(r), sel: r.sel || {}, choose: r.choose,
    // The symbol of the seat's claim the server has not answered yet, or
    // -1: Collect the Symbols shows its token taken at once.
    pending: r.pending ? r.pending.symbol : -1,
    names: (gs) => seatName(r, sessionSeatOf(r, gs)),
    away: (gs) => seatAway(r, sessionSeatOf(r, gs)),
    act: sendAct,
    select: (patch) => { r.sel = { ...r.sel, ...patch }; render(); },
    offer: (zones, fields) => {
      if (zones.length === 1) {
        const { type, ...rest } = fields;
        sendAct(type, { ...rest, target: zones });
        return;
      }
      r.choose = { zones, fields, version: view.version };
      render();
      document.querySelector(".choice[data-zone]")?.focus();
    },
    pick: chooseZone,
    symbol: claim,
  };
}

function draw() {
  const r = S.room;
  if (!r || !r.view || gameSeatOf(r) < 0) return;
  send({ type: "draw", table: r.table, version: r.view.version });
}

function flashSymbol(symbol, cls, zone) {
  const sel = zone !== undefined ? `[data-zone="${zone}"] g[data-symbol="${symbol}"]` : `.table g[data-symbol="${symbol}"]`;
  for (const g of document.querySelectorAll(sel)) {
    g.classList.add(cls);
    setTimeout(() => g.classList.remove(cls), 700);
  }
}

// A toast shows for TOAST_MS; the page drawn again meanwhile (render, as
// the update that brought the news is drawn) shows it still (toastEl).
const TOAST_MS = 1400;
let toastTimer = 0;
let toastShown = { text: "", kind: "", until: 0 };
function toast(text, kind) {
  toastShown = { text, kind: kind || "", until: performance.now() + TOAST_MS };
  const el = document.getElementById("toast");
  if (el) el.replaceWith(toastEl());
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { document.getElementById("toast")?.replaceWith(toastEl()); }, TOAST_MS + 20);
}

// toastEl is the toast as it is now: showing its text, or hidden.
function toastEl() {
  const on = performance.now() < toastShown.until;
  return h("div", { id: "toast", class: on ? `toast show ${toastShown.kind}` : "toast", role: "alert" }, on ? toastShown.text : "");
}

let countdownTimer = 0;
function runCountdown() {
  clearInterval(countdownTimer);
  let last = -1;
  const tick = () => {
    const r = S.room;
    const el = document.getElementById("countdown");
    if (!r || !el) { clearInterval(countdownTimer); return; }
    const left = r.countdownEnd - performance.now();
    if (left <= 0) {
      el.hidden = true;
      clearInterval(countdownTimer);
      if (last !== 0) sounds.go();
      last = 0;
      return;
    }
    const s = Math.ceil(left / 1000);
    el.hidden = false;
    replace(el, h("div", { class: "count" }, String(s)), h("div", null, t("countdown.ready")));
    if (s !== last) { sounds.tick(); last = s; }
  };
  tick();
  countdownTimer = setInterval(tick, 100);
}

// runClock keeps every clock on screen (the time left until a timed
// game's deadline, on the table's clock) up to date while one is shown.
let clockTimer = 0;
function runClock() {
  clearInterval(clockTimer);
  const tick = () => {
    const r = S.room;
    const els = document.querySelectorAll(".clock[data-deadline]");
    if (!r || !els.length || r.clock === undefined) { clearInterval(clockTimer); return; }
    const now = performance.now() - r.clock;
    for (const el of els) {
      const left = Math.max(0, Number(el.dataset.deadline) - now);
      const text = t("extra.clock", { s: Math.ceil(left / 1000) });
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("short", left < 3000);
    }
  };
  tick();
  clockTimer = setInterval(tick, 200);
}

let lockTimer = 0;
function runLock() {
  clearInterval(lockTimer);
  const tick = () => {
    const r = S.room;
    const el = document.getElementById("lock");
    if (!r || !el) { clearInterval(lockTimer); return; }
    const left = r.lockUntil - performance.now();
    if (left <= 0) {
      el.hidden = true;
      clearInterval(lockTimer);
      document.body.classList.remove("locked");
      return;
    }
    el.hidden = false;
    document.body.classList.add("locked");
    el.textContent = t("play.lockedFor", { s: (left / 1000).toFixed(1) });
  };
  tick();
  lockTimer = setInterval(tick, 100);
}

// ---- keyboard ------------------------------------------------------------

// letter reports whether e is the key of Latin letter l (lower case): by
// the character typed, or by the key's place on the keyboard, so that D, M
// and S work on a Cyrillic or other layout too.
function letter(e, l) {
  return e.key === l || e.key === l.toUpperCase() || e.code === `Key${l.toUpperCase()}`;
}

// NUMBER_KEYS name the symbols of the seat's own card, the first symbol in
// reading order with 1 (a card has at most ten).
const NUMBER_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];

// keyedCard is the card whose symbols the number keys name: the seat's own
// top card on a table of claims, else the first card of a game's own table
// whose symbols can be acted on.
function keyedCard() {
  const own = document.querySelector(".table .seat.mine svg.face[data-card]");
  if (own && own.querySelector("g[data-symbol][tabindex]")) return own;
  for (const svg of document.querySelectorAll(".xgame svg.face[data-card]")) {
    if (svg.querySelector("g[data-symbol][tabindex]")) return svg;
  }
  return null;
}

// keyedSymbols lists the symbols of the keyed card in reading order: by
// rows from the top (a symbol whose centre lies within a sixth of the
// card's height of the row's first is on that row), each row from the left.
function keyedSymbols() {
  const svg = keyedCard();
  if (!svg) return [];
  const size = svg.getBoundingClientRect().height || 1;
  const at = [...svg.querySelectorAll("g[data-symbol]")].map((g) => {
    const b = g.getBoundingClientRect();
    return { g, x: b.left + b.width / 2, y: b.top + b.height / 2 };
  }).sort((a, b) => a.y - b.y);
  const rows = [];
  for (const p of at) {
    const row = rows[rows.length - 1];
    if (row && p.y - row[0].y < size / 6) row.push(p);
    else rows.push([p]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.x - b.x)).map((p) => p.g).slice(0, NUMBER_KEYS.length);
}

// showNumbers puts each number key on its symbol of the keyed card, once
// the keyboard has been used on the play screen (body.keyboard).
function showNumbers() {
  for (const el of document.querySelectorAll(".knum")) el.remove();
  if (!document.body.classList.contains("keyboard")) return;
  const svg = keyedCard();
  const box = svg && svg.parentElement;
  if (!box) return;
  const b = box.getBoundingClientRect();
  if (!b.width) return;
  keyedSymbols().forEach((g, i) => {
    const s = g.getBoundingClientRect();
    box.append(h("span", {
      class: "knum", "aria-hidden": "true", "data-key": NUMBER_KEYS[i],
      style: `left: ${((s.left + s.width / 2 - b.left) / b.width) * 100}%; top: ${((s.top + s.height / 2 - b.top) / b.height) * 100}%`,
    }, NUMBER_KEYS[i]));
  });
}

document.addEventListener("keydown", (e) => {
  if (e.target.matches && e.target.matches("input, select, textarea")) return;
  if (!document.body.classList.contains("keyboard") && S.route.screen === "room" && S.room && S.room.phase === "play" && !e.ctrlKey && !e.metaKey && !e.altKey) {
    document.body.classList.add("keyboard");
    showNumbers();
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const r = S.room;
  // A replay's keys step through it; Enter and Space on one of its
  // buttons press that button.
  if (S.route.screen === "replay") {
    if (!(e.target.matches && e.target.matches("button") && (e.key === "Enter" || e.key === " "))) replayKey(e);
    return;
  }
  const g = e.target.closest && e.target.closest("g[data-symbol]");
  if (g && (e.key === "Enter" || e.key === " ")) {
    e.preventDefault();
    const z = g.closest("[data-zone]");
    if (z && z.classList.contains("choice")) { chooseZone(Number(z.dataset.zone)); return; }
    claim(Number(z.dataset.zone), Number(g.getAttribute("data-symbol")));
    return;
  }
  const zc = e.target.closest && e.target.closest(".zone.choice, .xplace.choice");
  if (zc && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); chooseZone(Number(zc.dataset.zone)); return; }
  if (e.key === "ArrowRight" || e.key === "ArrowLeft" || e.key === "ArrowDown" || e.key === "ArrowUp") {
    const all = [...document.querySelectorAll(".table g[tabindex], .xgame g[tabindex]")];
    if (!all.length || S.route.screen !== "room") return;
    e.preventDefault();
    const i = all.indexOf(g);
    const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : -1;
    const next = all[(i < 0 ? 0 : i + step + all.length) % all.length];
    next.focus();
    return;
  }
  if (r && r.choose && /^[1-9]$/.test(e.key)) {
    const z = r.choose.zones[Number(e.key) - 1];
    if (z !== undefined) { e.preventDefault(); chooseZone(z); }
    return;
  }
  // The number keys name the symbols of the seat's own card, in reading
  // order (NUMBER_KEYS), as a click on them does.
  const n = NUMBER_KEYS.indexOf(e.key);
  if (n >= 0 && r && r.phase === "play" && S.route.screen === "room") {
    const syms = keyedSymbols();
    if (syms[n]) {
      e.preventDefault();
      const z = syms[n].closest("[data-zone]");
      if (z) claim(Number(z.dataset.zone), Number(syms[n].getAttribute("data-symbol")));
    }
    return;
  }
  if (e.key === "Escape" && r && r.choose) { r.choose = null; render(); return; }
  if (letter(e, "d") && r && r.phase === "play" && gameInfo(r.view?.game).draw) { draw(); return; }
  // A game's module may give letters their own actions (S says STOP).
  const letters = r && r.phase === "play" && r.view ? gameModule(r.view.game)?.letters : null;
  for (const [l, act] of Object.entries(letters || {})) {
    if (letter(e, l)) { act(gameCtx(r)); return; }
  }
  if (letter(e, "m")) { setSound(!soundOn()); render(); }
});

// Long press on a symbol shows its name instead of claiming it.
let pressTimer = 0;
document.addEventListener("pointerdown", (e) => {
  const g = e.target.closest && e.target.closest("g[data-symbol]");
  if (!g || e.pointerType === "mouse") return;
  clearTimeout(pressTimer);
  pressTimer = setTimeout(() => {
    g.dataset.longpress = "1";
    showTip(g);
  }, 450);
});
for (const ev of ["pointerup", "pointercancel", "pointermove"]) {
  document.addEventListener(ev, (e) => {
    if (ev === "pointermove" && Math.hypot(e.movementX || 0, e.movementY || 0) < 4) return;
    clearTimeout(pressTimer);
  });
}
document.addEventListener("focusin", (e) => {
  const g = e.target.closest && e.target.closest("g[data-symbol]");
  if (g) showTip(g);
});
document.addEventListener("mouseover", (e) => {
  const g = e.target.closest && e.target.closest("g[data-symbol]");
  if (g) showTip(g);
});

// A tip belongs to where the symbol was: a new width of the window (a
// phone turned) takes it away.
let tipWidth = window.innerWidth;
window.addEventListener("resize", () => {
  refit();
  showNumbers();
  if (window.innerWidth === tipWidth) return;
  tipWidth = window.innerWidth;
  const tip = document.getElementById("tip");
  if (tip) tip.hidden = true;
});

function showTip(g) {
  const tip = document.getElementById("tip");
  if (!tip) return;
  tip.textContent = g.getAttribute("aria-label") || "";
  const b = g.getBoundingClientRect();
  tip.style.left = `${Math.max(4, Math.min(window.innerWidth - 160, b.left + b.width / 2 - 40))}px`;
  tip.style.top = `${Math.max(4, b.top + window.scrollY - 30)}px`;
  tip.hidden = false;
  clearTimeout(showTip.timer);
  showTip.timer = setTimeout(() => { tip.hidden = true; }, 1600);
}

// ---- rendering -------------------------------------------------------------

function render() {
  const main = h("main", { id: "main" });
  const screen = S.route.screen;
  const home = !(screen === "history" || screen === "replay" || (S.room && screen === "room"));
  // The public rooms are fetched once each time the home screen is
  // entered, not at each of its draws.
  if (!home) S.rooms = null;
  if (screen === "history") main.append(historyScreen());
  else if (screen === "replay") main.append(replayScreen());
  else if (!home) main.append(roomScreen());
  else main.append(homeScreen());
  const focused = document.activeElement && document.activeElement.id;
  const act = document.activeElement;
  const symFocus = act && act.matches && act.matches("g[data-symbol]") && act.closest("[data-zone]")
    ? [act.closest("[data-zone]").dataset.zone, act.getAttribute("data-symbol")] : null;
  replace(app,
    header(),
    h("div", { id: "status", class: "status", role: "status", hidden: true }),
    main,
    toastEl(),
    h("div", { id: "tip", class: "tip", hidden: true }),
    h("div", { id: "countdown", class: "countdown", hidden: true }));
  renderStatus();
  if (S.room && S.room.countdownEnd > performance.now()) runCountdown();
  if (S.room && S.room.lockUntil > performance.now()) runLock();
  if (S.room && S.room.tableEl) mountTable();
  showNumbers();
  if (focused && !document.activeElement?.id) document.getElementById(focused)?.focus();
  if (symFocus) {
    const g = document.querySelector(`.table [data-zone="${symFocus[0]}"] g[data-symbol="${symFocus[1]}"]`);
    if (g) g.focus({ preventScroll: true });
  }
}

function renderStatus() {
  const el = document.getElementById("status");
  if (!el) return;
  const lost = S.status === "lost" || (S.status === "connecting" && S.conn && S.conn.everWelcomed);
  el.hidden = !lost;
  el.textContent = lost ? t("app.reconnecting") : "";
}

function header() {
  const relang = () => { if (S.room) { S.room.tableUI = null; } render(); rename(document); };
  const langSel = h("select", { id: "lang", "aria-label": t("app.language"), onchange: (e) => { setLang(e.target.value).then(relang, relang); } },
    LANGS.map((l) => h("option", { value: l, selected: l === lang() }, LANG_NAMES[l])));
  return h("header", { class: "top" },
    h("a", { href: "/", class: "brand", onclick: (e) => { e.preventDefault(); leaveToHome(); } }, "dobble"),
    h("nav", null,
      h("a", { href: "/#history", id: "nav-history", onclick: (e) => { e.preventDefault(); go("/", "#history"); } }, t("app.history")),
      h("button", { type: "button", id: "sound", class: "link", "aria-pressed": soundOn() ? "true" : "false", onclick: () => { setSound(!soundOn()); render(); } },
        soundOn() ? t("app.soundOn") : t("app.soundOff")),
      h("label", { class: "lang" }, h("span", { class: "sr" }, t("app.language")), langSel)));
}

function leaveToHome() {
  if (S.room && S.route.screen === "room") {
    if (S.room.phase !== "play" || !confirm(t("play.leave") + "?")) {
      if (S.room.phase === "play") return;
    }
    leave();
    return;
  }
  go("/");
}

function leave() {
  if (S.room) {
    send({ type: "leave" });
    dropSeat(S.room.code);
  }
  S.room = null;
  go("/");
}

// ---- home ----------------------------------------------------------------

// form is the home page's room form; its game is the server's first game
// (GET /api/games) until one is picked.
const form = {
  game: "", deck: "classic", seats: 3, bots: [null, null, "medium"], scoring: "wins", games: 3,
  lockout: 1000, private: false, options: {},
};

function homeScreen() {
  const code = S.route.code || "";
  const nick = h("input", {
    id: "nickname", maxlength: 24, autocomplete: "nickname", value: S.name,
    oninput: (e) => { S.name = e.target.value; localStorage.setItem("dobble.name", e.target.value.trim()); },
  });
  const codeInput = h("input", { id: "code", value: code, maxlength: 8, autocapitalize: "characters", spellcheck: "false" });
  const join = (watch) => {
    const c = codeInput.value.trim().toUpperCase();
    if (!c) { codeInput.focus(); return; }
    if (!watch && !needName()) return;
    if (watch && !S.name.trim()) { S.name = "?"; }
    S.room = newRoom(c);
    S.route = { screen: "room", code: c };
    send(watch ? { type: "watch", room: c } : { type: "join", room: c });
    render();
  };
  const els = [
    h("p", { class: "tagline" }, t("app.tagline")),
    S.notice ? h("p", { class: "notice", role: "alert" }, S.notice) : null,
    h("label", { class: "field nick" }, h("span", null, t("home.nickname")), nick),
    code ? joinFirst(code, join) : null,
    h("section", { class: "panel practice" },
      h("h2", null, t("home.practice")),
      h("p", null, t("home.practiceHelp")),
      h("div", { class: "row" },
        h("button", { id: "learn-alone", class: "primary", onclick: () => learn(false) }, t("home.learnAlone")),
        h("button", { id: "learn-bots", onclick: () => learn(true) }, t("home.learnBots")))),
    createPanel(),
    h("section", { class: "panel" },
      h("h2", null, t("home.join")),
      h("label", { class: "field" }, h("span", null, t("home.code")), codeInput),
      h("div", { class: "row" },
        h("button", { id: "join", onclick: () => join(false) }, t("home.joinBtn")),
        h("button", { id: "watch", onclick: () => join(true) }, t("home.watchBtn")))),
    roomsPanel(),
  ];
  return h("div", { class: "home" }, els);
}

// joinFirst is the panel of a share link's room: it offers the seat this
// browser holds there (stored by another tab, or before it was closed),
// or to join; and to watch, first when the game has begun without a seat
// for this person.
function joinFirst(code, join) {
  const held = heldSeat(code);
  const watchFirst = S.watchOnly === code;
  const watch = h("button", { id: "watch-room", class: watchFirst ? "primary" : "", onclick: () => join(true) }, t("home.watchBtn"));
  const act = held
    ? h("button", { id: "resume-room", class: "primary", onclick: () => resumeSeat(code, held) }, t("home.resumeBtn"))
    : watchFirst ? null : h("button", { id: "join-room", class: "primary", onclick: () => join(false) }, t("home.joinBtn"));
  return h("section", { class: "panel join-first" },
    h("h2", null, t("lobby.title", { code })),
    held ? h("p", { id: "held-seat" }, t("home.held", { n: held.seat + 1 })) : null,
    h("div", { class: "row" }, act, watch));
}

// learn starts the server's practice game (GET /api/games' practice) in
// a private room, alone or with bots.
async function learn(withBots) {
  if (!needName()) return;
  let games;
  try {
    games = await loadGames();
  } catch (err) {
    S.notice = t("err.http", { message: err.message });
    render();
    return;
  }
  S.room = newRoom("");
  S.room.autostart = true;
  S.route = { screen: "room", code: "" };
  send({
    type: "create",
    room: {
      game: games.practice, options: {}, deck: "classic", seats: withBots ? 3 : 1,
      bots: withBots ? [null, "easy", "medium"] : [null], private: true, scoring: "wins", games: 1, lockout: 1000,
    },
  });
  render();
}

function createPanel() {
  const box = h("section", { class: "panel create" }, h("h2", null, t("home.create")));
  if (!S.games) {
    if (!S.gamesReq && !S.gamesError) loadGames().then(render, gamesFailed);
    box.append(h("p", null, "…"));
    return box;
  }
  if (!S.games.games.some((g) => g.name === form.game)) form.game = S.games.first || S.games.games[0]?.name || "";
  const info = gameInfo(form.game);
  const lo = info.minPlayers || 1;
  const hi = info.maxPlayers || 8;
  form.seats = Math.min(hi, Math.max(lo, form.seats));
  const sel = (id, value, options, onchange) => h("select", { id, onchange: (e) => { onchange(e.target.value); render(); } },
    options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) }, label)));
  const field = (label, control) => h("label", { class: "field" }, h("span", null, label), control);
  // A game played only with its own deck (info.deck.only) offers that
  // deck alone; the others offer every edition but those.
  const own = info.deck && info.deck.only ? info.deck.edition : "";
  const owned = new Set(S.games.games.filter((g) => g.deck && g.deck.only).map((g) => g.deck.edition));
  const decks = own
    ? [[own, deckTitle(S.games.editions.find((e) => e.name === own)) || own]]
    : [
      ...S.games.editions.filter((e) => !owned.has(e.name)).map((e) => [e.name, deckTitle(e) || e.name]),
      ...[2, 3, 4, 5, 7, 8, 9].map((q) => [`order-${q}`, t("home.orderDeck", { q })]),
    ];
  if (!decks.some(([v]) => v === form.deck)) form.deck = decks[0][0];
  append(box,
    field(t("home.game"), sel("game", form.game, S.games.games.map((g) => [g.name, gameTitle(g.name)]), (v) => { form.game = v; form.options = {}; })),
    h("p", { class: "how" }, gameRule(info.name)),
    (info.options || []).length ? h("fieldset", { class: "options" }, h("legend", null, t("home.options")),
      info.options.map((o) => {
        const text = optionText(info, o);
        // An option naming a seat offers the table's seats, counted from
        // 1 as the table counts them; one set beyond fewer seats is the
        // last seat.
        if (o.seat && form.options[o.name] !== undefined) form.options[o.name] = String(Math.min(Number(form.options[o.name]), form.seats - 1));
        const value = form.options[o.name] ?? o.default;
        const control = o.seat
          ? sel(`opt-${o.name}`, value, range(0, form.seats - 1).map((i) => [i, t("home.seat", { n: i + 1 })]), (v) => { form.options[o.name] = v; })
          : o.choices && o.choices.length
          ? sel(`opt-${o.name}`, value, o.choices.map((c) => [c, choiceText(info, o, c)]), (v) => { form.options[o.name] = v; })
          : h("input", { id: `opt-${o.name}`, type: "number", min: o.min || 0, max: o.max, value, onchange: (e) => { form.options[o.name] = e.target.value; } });
        return h("label", { class: "field" }, h("span", null, text.label), control,
          text.doc ? h("small", { class: "doc", id: `opt-${o.name}-doc` }, text.doc) : null);
      })) : null,
    field(t("home.deck"), sel("deck", form.deck, decks, (v) => { form.deck = v; })),
    field(t("home.seats"), sel("seats", form.seats, range(lo, hi).map((n) => [n, String(n)]), (v) => { form.seats = Number(v); })),
    h("ol", { class: "seat-setup" }, range(0, form.seats - 1).map((i) => h("li", null,
      i === 0 ? `${t("home.seat", { n: 1 })}: ${t("home.you")}` :
        h("label", null, `${t("home.seat", { n: i + 1 })}: `,
          sel(`seat-${i}`, form.bots[i] || "", [["", t("home.person")], ...S.games.levels.map((l) => [l, t("home.bot", { level: t(`level.${l}`) })])],
            (v) => { form.bots[i] = v || null; }))))),
    field(t("home.scoring"), sel("scoring", form.scoring, [["wins", t("home.scoring.wins")], ["points", t("home.scoring.points")]], (v) => { form.scoring = v; })),
    field(t("home.games"), h("input", { id: "games", type: "number", min: 1, max: 20, value: form.games, onchange: (e) => { form.games = Number(e.target.value); } })),
    field(t("home.lockout"), h("input", { id: "lockout", type: "number", min: 0, max: 5000, step: 100, value: form.lockout, onchange: (e) => { form.lockout = Number(e.target.value); } })),
    h("label", { class: "check" }, h("input", { id: "private", type: "checkbox", checked: form.private, onchange: (e) => { form.private = e.target.checked; } }), t("home.private")),
    h("button", { id: "create", class: "primary", onclick: create }, t("home.createBtn")));
  return box;
}

// deckTitle describes a published deck (an edition of GET /api/games) in
// the chosen language, else as the server describes it in English.
function deckTitle(e) {
  if (!e) return "";
  const key = `deck.${e.name}`;
  const s = t(key);
  return s === key ? e.title || "" : s;
}

// optionText is a game option's name and description in the chosen
// language, else in English; an option the game's texts do not name shows
// its name and (English) doc from the game's Info.
function optionText(info, o) {
  return {
    label: gameText(info, (x) => x.options?.[o.name]?.name) || o.name,
    doc: gameText(info, (x) => x.options?.[o.name]?.doc) || o.doc || "",
  };
}

// choiceText is the name of choice c of a game option in the chosen
// language, else in English, else the choice itself.
function choiceText(info, o, c) {
  return gameText(info, (x) => x.options?.[o.name]?.choices?.[c]) || c;
}

function range(a, b) {
  const out = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

function create() {
  if (!needName()) return;
  const info = gameInfo(form.game);
  const options = {};
  for (const o of info.options || []) options[o.name] = String(form.options[o.name] ?? o.default);
  const bots = range(0, form.seats - 1).map((i) => (i === 0 ? null : form.bots[i] || null));
  S.room = newRoom("");
  S.route = { screen: "room", code: "" };
  send({
    type: "create",
    room: {
      game: info.name, options, deck: form.deck, seats: form.seats, bots, private: form.private,
      scoring: form.scoring, games: form.games, lockout: form.lockout,
    },
  });
  render();
}

function roomsPanel() {
  const box = h("section", { class: "panel rooms" }, h("h2", null, t("home.rooms")));
  const list = h("ul", { id: "rooms" });
  box.append(list);
  if (!S.rooms) S.rooms = getJSON("/api/rooms");
  S.rooms.then((data) => {
    const rooms = Array.isArray(data) ? data : data.rooms || [];
    if (!rooms.length) { replace(list, h("li", null, t("home.noRooms"))); return; }
    replace(list, rooms.map((rm) => {
      const seats = Array.isArray(rm.seats) ? rm.seats.length : rm.seats;
      const taken = rm.taken ?? (Array.isArray(rm.seats) ? rm.seats.filter((s) => s.kind !== "free").length : 0);
      return h("li", null, t("home.roomLine", { code: rm.code, game: gameTitle(rm.game), taken, seats }), " ",
        h("a", { href: `/r/${rm.code}` }, t("home.joinBtn")));
    }));
  }).catch(() => replace(list, h("li", null, t("home.noRooms"))));
  return box;
}

// ---- room: lobby, play, results ----------------------------------------

function roomScreen() {
  const r = S.room;
  if (r.phase === "play" && r.view) return playScreen(r);
  if (r.phase === "over" && r.over) return resultsScreen(r);
  if (!r.lobby) return h("p", { class: "wait" }, t("app.connecting"));
  return lobbyScreen(r);
}

function lobbyScreen(r) {
  const L = r.lobby;
  const link = `${location.origin}/r/${L.code}`;
  const linkInput = h("input", { id: "share-link", readonly: true, value: link, onfocus: (e) => e.target.select() });
  const copied = h("span", { class: "copied", role: "status" });
  return h("div", { class: "lobby" },
    h("h1", null, t("lobby.title", { code: "" }), h("span", { id: "room-code", class: "code" }, L.code)),
    savedNote(r),
    h("p", null, gameTitle(L.game), " · ", L.deck, " · ", t("home.games"), ": ", String(L.games || 1), L.private ? ` · ${t("lobby.private")}` : ""),
    h("p", { class: "how" }, gameRule(L.game)),
    h("div", { class: "share" }, h("label", { for: "share-link" }, t("lobby.share")),
      h("div", { class: "row" }, linkInput,
        h("button", { id: "copy", onclick: () => { navigator.clipboard?.writeText(link).then(() => { copied.textContent = t("lobby.copied"); }, () => linkInput.select()); } }, t("lobby.copy")),
        copied)),
    h("ol", { id: "seats", class: "seats" }, (L.seats || []).map((s) => seatItem(r, s))),
    r.seat < 0 ? h("p", null, t("lobby.spectator")) : null,
    h("div", { class: "row" },
      r.host ? h("button", { id: "start", class: "primary", onclick: () => send({ type: "start" }) }, t("lobby.start"))
        : h("p", { class: "wait" }, t("lobby.waitingHost")),
      h("button", { id: "leave", onclick: leave }, t("lobby.leave"))));
}

// savedNote shows what the server last said of storing a finished game
// of the room ("saved"), if anything.
function savedNote(r) {
  return r.saved ? h("p", { id: "saved", class: "notice", role: "status" }, r.saved) : null;
}

function seatItem(r, s) {
  const me = s.seat === r.seat;
  const who = s.kind === "free" ? t("lobby.free") : seatName(r, s.seat);
  const bits = [h("span", { class: "name" }, who)];
  if (me) bits.push(h("span", { class: "you" }, ` (${t("home.you")})`));
  if (r.lobby && r.lobby.host === s.seat) bits.push(h("span", { class: "badge" }, t("lobby.host")));
  if (s.kind === "human" && s.connected === false) bits.push(h("span", { class: "badge off" }, t("lobby.offline")));
  if (r.host && !me && s.seat !== 0) {
    bits.push(h("select", {
      class: "seat-kind", "aria-label": t("home.seat", { n: s.seat + 1 }),
      onchange: (e) => send({ type: "seat", seat: s.seat, bot: e.target.value || null }),
    }, h("option", { value: "", selected: s.kind !== "bot" }, s.kind === "human" ? who : t("lobby.makeFree")),
    ((S.games && S.games.levels) || ["easy", "medium", "hard", "expert"]).map((l) =>
      h("option", { value: l, selected: s.kind === "bot" && s.level === l }, t("home.bot", { level: t(`level.${l}`) })))));
  }
  return h("li", { class: `seat-${s.kind}`, "data-seat": s.seat }, bits);
}

// showNewest puts the newest view on screen once the pictures of its cards
// are loaded; a view whose new cards are still loading waits, and the table
// on screen stays as it was until they are there. The play screen draws
// everything of the table, its panels (Collect the Symbols' tokens) as
// well as the cards, from the view on screen, so that what a click names
// is what the screen shows.
function showNewest(r) {
  if (r.shown === r.view || (r.shown && !ready(r.deck, r.view))) return;
  if (!gameModule(r.view.game)?.draw) {
    r.prevShown = r.shown || null;
    r.shownAt = performance.now();
  }
  r.shown = r.view;
}

function playScreen(r) {
  showNewest(r);
  const view = r.view;
  const info = gameInfo(view.game);
  const mod = gameModule(view.game);
  const me = gameSeatOf(r);
  const tableEl = h("div", { id: "table-root" });
  r.tableEl = tableEl;
  const round = view.round ? ` · ${t("play.round", { n: view.round })}` : "";
  watchLatency();
  const far = S.rtt >= 150 ? "far" : S.rtt >= 60 ? "mid" : "near";
  return h("div", { class: `play game-${info.name}` },
    h("div", { class: "playhead" },
      h("h1", null, gameTitle(view.game), r.session && r.session.phase === "tieBreak" ? ` · ${t("results.tieBreak")}` : "", round),
      h("p", { class: "how" }, gameRule(info.name)),
      h("span", { id: "latency", class: `latency ${far}`, title: t("play.latencyHow") }, S.rtt ? t("play.latency", { ms: S.rtt }) : "")),
    h("p", { id: "feed", class: "feed", "aria-live": "polite" }, r.feed.length ? feedText(r, r.feed[0]) : me < 0 ? t("play.spectating") : "\u00a0"),
    r.choose ? h("p", { class: "choose", role: "status" }, r.choose.own ? t("play.pickStack") : t("play.pickTarget")) : null,
    h("div", { id: "lock", class: "lock", hidden: true }),
    mod && mod.panel ? mod.panel(gameCtx(r)) : null,
    tableEl,
    h("div", { class: "row actions" },
      info.draw && me >= 0 ? h("button", { id: "draw", "aria-keyshortcuts": "D", onclick: draw }, t("play.draw")) : null,
      h("button", { id: "leave-game", onclick: () => { if (confirm(`${t("play.leave")}?`)) leave(); } }, t("play.leave"))),
    h("ul", { class: "log" }, r.feed.slice(1).map((f) => h("li", null, feedText(r, f)))),
    keysLine(info, me));
}

// keyParts lists what the keyboard does on the play screen of a game, for
// seat me (a spectator's keys only switch the sound): each part's name,
// its keys and what they do there, as the keydown handler above and the
// page's buttons make them work. A game with a module says its own (its
// symbol's verb, its letters); a game of claims asks for a choice of card
// where its claim names targets of different parts (asksTarget), and has
// D where it has a draw.
function keyParts(info, me) {
  const parts = [];
  const mod = gameModule(info.name);
  if (me >= 0 && mod && mod.keys) {
    parts.push(...mod.keys(me));
  } else if (me >= 0) {
    parts.push(["move", ["Tab", "←→"], "keys.move"], ["act", enterKeys(), "keys.claim"]);
    // The number keys name the symbols of the seat's own card, in the
    // games whose claims are made with it.
    const c = info.claim || {};
    if ([...(c.match || []), ...(c.targets || [])].some((p) => p.whose === "mine")) parts.push(["number", ["1–9"], "keys.number"]);
    if (asksTarget(info)) parts.push(["choose", ["1–9"], "keys.choose"], ["cancel", ["Esc"], "keys.cancel"]);
    if (info.draw) parts.push(["draw", ["D"], "keys.draw"]);
  }
  parts.push(["sound", ["M"], "keys.sound"]);
  return parts;
}

// keysLine is the play screen's footer: the keys that work in the game
// shown, their names in data-keys.
function keysLine(info, me) {
  const parts = keyParts(info, me);
  return h("p", { id: "keys", class: "keys", "data-keys": parts.map(([name]) => name).join(" ") },
    h("span", { class: "klabel" }, t("keys.title")), " ",
    parts.map(([name, keys, text], i) => [i ? " · " : "", h("span", { class: "kpart", "data-key": name },
      keys.map((k, j) => [j ? "/" : "", h("kbd", null, k)]), " ", t(text))]));
}

function mountTable() {
  const r = S.room;
  if (!r || !r.tableEl || !r.view) return;
  if (!gameLoaded(r.view.game)) {
    // The table waits for the game's module, which says how it is drawn.
    loadGame(r.view.game).then(() => { if (S.room === r) render(); });
    return;
  }
  const me = gameSeatOf(r);
  const mod = gameModule(r.view.game);
  showNewest(r);
  if (mod && mod.draw) {
    drawOwn(r.tableEl, gameCtx(r), mod);
    r.tableEl = null;
    runClock();
    return;
  }
  if (!r.tableUI || r.tableUI.deck !== r.deck) {
    r.tableUI = new Table(r.tableEl, {
      deck: r.deck, interactive: me >= 0,
      onSymbol: (zone, symbol) => claim(zone, symbol),
      onZone: (zone) => chooseZone(zone),
    });
  } else {
    r.tableEl.replaceChildren(r.tableUI.el);
  }
  const view = r.shown;
  const res = view.result;
  r.tableUI.draw(view, {
    me,
    names: (gs) => seatName(r, sessionSeatOf(r, gs)),
    away: (gs) => seatAway(r, sessionSeatOf(r, gs)),
    scores: res ? res.scores : null,
    unit: res ? res.unit : gameInfo(view.game).unit || "cards",
    locked: performance.now() < r.lockUntil,
    choose: r.choose ? r.choose.zones : [],
    fresh: r.fresh,
    winner: r.winner,
    scoreLine: gameText(gameInfo(view.game), (x) => x.score) || "",
    tallyLine: gameText(gameInfo(view.game), (x) => x.tally) || "",
  });
  fitTable(r.tableUI.el, gameInfo(view.game).claim);
  r.tableEl = null;
}

// refit sizes the table on screen for the screen again (a phone turned).
function refit() {
  const table = document.querySelector("#table-root > .table");
  if (table) fitTable(table, S.room && S.room.view ? gameInfo(S.room.view.game).claim : null);
  const own = document.querySelector(".xgame");
  if (own) fitOwn(own);
}

// resultTable is the table of how one game (over message o) ended: each
// seat's place, name and score, in the ranking's order; id names the
// table of the game just ended.
function resultTable(r, o, id) {
  const res = o.result || {};
  const toSession = (gs) => (o.players ? o.players[gs] : gs);
  const ranking = res.ranking || (res.scores || []).map((_, i) => i);
  return h("table", { id, class: "result" },
    h("thead", null, h("tr", null, h("th", null, t("results.place")), h("th", null, t("results.player")), h("th", null, t("results.score")))),
    h("tbody", null, ranking.map((gs) => h("tr", { class: toSession(gs) === r.seat ? "me" : "" },
      h("td", null, String(res.places ? res.places[gs] : "")),
      h("td", null, seatName(r, toSession(gs))),
      h("td", null, res.scores ? amount(res.scores[gs], res.unit) : "")))));
}

function resultsScreen(r) {
  const o = r.over;
  const res = o.result || {};
  const sess = r.session;
  const toSession = (gs) => sessionSeatOf(r, gs);
  const winners = (res.winners || []).map((gs) => seatName(r, toSession(gs))).join(", ");
  // The mini-game whose tie the tables since were played to break, and
  // those tie-breaks: each with its own results, the latest last.
  const earlier = (r.earlier || []).map((e, i) => h("section", { class: "earlier", "data-table": e.table },
    h("h2", null, i === 0 ? gameTitle(e.game) : `${t("results.tieBreak")} · ${gameTitle(e.game)}`,
      " · ", t("results.tied", { names: (e.result?.winners || []).map((gs) => seatName(r, e.players ? e.players[gs] : gs)).join(", ") })),
    resultTable(r, e, null)));
  const els = [
    h("h1", null, t("results.title"), " · ", gameTitle(o.game || r.view?.game || "")),
    savedNote(r),
    ...earlier,
    earlier.length ? h("h2", { id: "tie-break" }, `${t("results.tieBreak")} · ${gameTitle(o.game)}`) : null,
    h("p", { id: "winner", class: "winner" }, t("results.winner", { names: winners })),
    resultTable(r, o, "result"),
    gameSeatOf(r) >= 0 && hasClaims(o.game || r.view?.game || "") ? h("p", { id: "my-claims", "data-right": r.stats.right, "data-wrong": r.stats.wrong, "data-late": r.stats.late },
      t("results.claims", r.stats)) : null,
  ];
  if (sess && sess.standings) {
    const st = sess.standings;
    els.push(
      h("h2", null, t("results.standings")),
      sess.games ? h("p", { id: "after-game" }, t("results.afterGame", { n: typeof sess.played === "number" ? sess.played : (sess.history || []).length, m: sess.games })) : null,
      h("table", { id: "standings", class: "result" },
        h("thead", null, h("tr", null, h("th", null, t("results.place")), h("th", null, t("results.player")),
          h("th", null, t("results.won")), h("th", null, t("results.points")))),
        h("tbody", null, (st.ranking || st.seats.map((s) => s.seat)).map((seat) => {
          const s = st.seats.find((x) => x.seat === seat) || {};
          return h("tr", { class: seat === r.seat ? "me" : "" },
            h("td", null, String(s.place ?? "")), h("td", null, seatName(r, seat)),
            h("td", null, String(s.won ?? 0)), h("td", null, String(s.points ?? 0)));
        }))));
  }
  const phase = sess ? sess.phase : "over";
  const picker = r.pick ? r.pick.picker : sess ? sess.picker : -1;
  // Between the games of a session: the time left to pick, and a way out.
  const between = () => h("div", { class: "row" },
    r.pick && r.pick.deadline !== undefined ? h("span", { id: "pick-clock", class: "clock", "data-deadline": r.pick.deadline, role: "timer", title: t("results.pickTime") }, "") : null,
    h("button", { id: "leave-session", onclick: leave }, t("play.leave")));
  if (phase === "pick" && picker >= 0) {
    if (picker === r.seat) els.push(pickForm(r));
    else els.push(h("p", { class: "wait" }, t("results.waitPick", { name: seatName(r, picker) })));
    els.push(between());
  } else if (phase === "over" || !sess) {
    const grand = sess && sess.standings ? sess.standings.winners.map((s) => seatName(r, s)).join(", ") : winners;
    els.push(h("p", { id: "grand", class: "grand" }, t("results.sessionOver", { names: grand })));
    els.push(h("div", { class: "row" },
      r.host ? h("button", { id: "rematch", class: "primary", onclick: () => send({ type: "start" }) }, t("results.rematch"))
        : h("p", { class: "wait" }, t("results.waitRematch")),
      h("button", { id: "home", onclick: leave }, t("app.home"))));
  } else if (sess) {
    els.push(h("p", { class: "wait" }, t("results.next", { game: gameTitle(sess.game) })), between());
  }
  return h("div", { class: "results" }, els);
}

function pickForm(r) {
  const choices = (r.pick && r.pick.choices) || (r.session && r.session.choices) || [];
  const state = { game: choices[0] };
  const box = h("div", { class: "panel pick" });
  const draw = () => {
    const info = gameInfo(state.game);
    replace(box,
      h("p", null, t("results.pick")),
      h("label", { class: "field" }, h("span", null, t("home.game")),
        h("select", { id: "pick-game", onchange: (e) => { state.game = e.target.value; draw(); } },
          choices.map((c) => h("option", { value: c, selected: c === state.game }, gameTitle(c))))),
      h("p", { class: "how" }, gameRule(info.name)),
      h("button", { id: "pick", class: "primary", onclick: () => send({ type: "pick", game: state.game }) }, t("results.pickBtn")));
  };
  draw();
  return box;
}

// ---- history and replays -------------------------------------------------

function historyScreen() {
  const box = h("div", { class: "history" }, h("h1", null, t("history.title")));
  const list = h("ul", { id: "history", class: "history-list" });
  box.append(list);
  const load = (before) => {
    const q = before ? `?before=${encodeURIComponent(before)}&limit=20` : "?limit=20";
    Promise.all([getJSON(`/api/history${q}`), loadGames().catch(() => null)]).then(([data]) => {
      const games = Array.isArray(data) ? data : data.games || [];
      if (!games.length && !before) { replace(list, h("li", null, t("history.empty"))); return; }
      list.querySelector(".more")?.remove();
      for (const g of games) {
        const when = g.ended ? new Date(g.ended).toLocaleString(lang()) : "";
        // Who played, each with their score, and who won.
        const seats = (g.seats || g.names || []).map(storedName);
        const scores = g.scores || [];
        const names = seats.map((s, i) => (scores[i] === undefined ? s : `${s}: ${amount(scores[i], g.unit)}`)).join(" · ");
        const winners = (g.winners || []).map((i) => seats[i]).filter(Boolean).join(", ");
        list.append(h("li", { "data-id": g.id },
          h("a", { href: `/#replay/${encodeURIComponent(g.id)}` }, t("history.replay")), " ",
          h("strong", null, gameTitle(g.game)), " · ", t("history.line", { game: "", players: seats.length, when }).replace(/^ · /, ""),
          winners ? h("div", { class: "winners" }, t("results.winner", { names: winners })) : null,
          names ? h("div", { class: "names" }, names) : null));
      }
      const next = data.next || (games.length === 20 ? games[games.length - 1].id : 0);
      if (next) list.append(h("li", { class: "more" }, h("button", { onclick: () => load(next) }, t("history.more"))));
    }, (err) => replace(list, h("li", null, t("err.http", { message: err.message }))));
  };
  load("");
  return box;
}

function replayScreen() {
  const id = S.route.id;
  const box = h("div", { class: "replay" });
  if (!S.replay || S.replay.id !== id) {
    S.replay = { id, data: null, step: 0, playing: false, ui: null };
    Promise.all([getJSON(`/api/history/${encodeURIComponent(id)}/steps`), loadGames().catch(() => null)]).then(async ([data]) => {
      const sum = data.game || {};
      data.game = sum.game || (data.header && data.header.game) || "";
      data.deck = sum.deck || "classic";
      data.names = (sum.seats || (data.header && data.header.seats) || []).map(storedName);
      S.replay.data = data;
      await useDeck(data.deck);
      render();
    }, (err) => { S.replay.error = err.message; render(); });
  }
  const R = S.replay;
  if (R.error) return replace(box, h("p", { class: "notice" }, t("err.http", { message: R.error })));
  if (!R.data) return replace(box, h("p", null, "…"));
  const steps = R.data.steps || [];
  const n = steps.length;
  R.step = Math.max(0, Math.min(n - 1, R.step));
  const step = steps[R.step];
  const names = (gs) => (R.data.names && R.data.names[gs]) || t("home.seat", { n: gs + 1 });
  const desc = R.step === 0 ? t("replay.deal")
    : step.refusal ? `${names(step.action ? step.action.seat : -1)}: ${t(`refused.${step.refusal.code}`)}`
      : describe(step.events || [], names, R.data.deck, steps[R.step - 1].view).join(" · ");
  // The symbols the step's events name (a claim's, a guess's, a written
  // one), highlighted on the cards of the step.
  const named = (step.events || []).filter((e) => typeof e.symbol === "number" && e.symbol >= 0).map((e) => e.symbol);
  const highlight = () => {
    for (const s of named) for (const g of tableRoot.querySelectorAll(`g[data-symbol="${s}"]`)) g.classList.add("hit");
  };
  const tableRoot = h("div", { id: "replay-table" });
  const btn = (id, label, fn) => h("button", { id, onclick: fn }, label);
  replace(box,
    h("h1", null, t("replay.title", { game: gameTitle(R.data.game) })),
    h("div", { class: "row controls" },
      btn("r-first", t("replay.first"), () => replayGo(0)),
      btn("r-prev", t("replay.prev"), () => replayGo(R.step - 1)),
      btn("r-play", R.playing ? t("replay.pause") : t("replay.play"), replayToggle),
      btn("r-next", t("replay.next"), () => replayGo(R.step + 1)),
      btn("r-last", t("replay.last"), () => replayGo(n - 1)),
      h("input", { id: "r-slider", type: "range", min: 0, max: n - 1, value: R.step, "aria-label": t("replay.step", { n: R.step + 1, m: n }), oninput: (e) => replayGo(Number(e.target.value)) })),
    h("p", { id: "r-step" }, t("replay.step", { n: R.step + 1, m: n }), " — ", desc),
    replayOutcome(step.view, names),
    tableRoot,
    h("p", { class: "keys" }, t("replay.keys")));
  const described = !!gameModule(step.view.game);
  loadGame(step.view.game).then((mod) => preload(R.data.deck, step.view).then(() => {
    // A step described before its game's module had loaded is described
    // again, in the module's words.
    if (!described && mod && mod.feed && R.step > 0 && S.replay === R) { render(); return; }
    if (mod && mod.draw) {
      // A replay has no clock running: the view's deadline is not shown.
      const noop = () => {};
      drawOwn(tableRoot, { view: { ...step.view, deadline: 0 }, deck: R.data.deck, me: -1, sel: {}, choose: null, names, away: () => false, act: noop, select: noop, offer: noop, pick: noop, symbol: noop }, mod);
      highlight();
      return;
    }
    const ui = new Table(tableRoot, { deck: R.data.deck, interactive: false });
    const res = step.view.result;
    ui.draw(step.view, {
      me: -1, names, scores: res ? res.scores : null, unit: res ? res.unit : "cards",
      fresh: new Set((step.events || []).filter((e) => e.kind === "move").map((e) => e.to)),
      scoreLine: gameText(gameInfo(step.view.game), (x) => x.score) || "",
      tallyLine: gameText(gameInfo(step.view.game), (x) => x.tally) || "",
    });
    highlight();
  }, () => {}));
  return box;
}

// replayOutcome is the line under a replay's last step: who won, and each
// seat's score, in the ranking's order; nothing before the game is over
// (a record cut short never gets there).
function replayOutcome(view, names) {
  const res = view.result;
  if (!view.over || !res) return null;
  const unit = (gs) => amount(res.scores[gs], res.unit);
  return h("p", { id: "r-outcome", class: "winner" },
    t("results.winner", { names: (res.winners || []).map(names).join(", ") }), " — ",
    (res.ranking || []).map((gs) => `${names(gs)}: ${unit(gs)}`).join(" · "));
}

// storedName shows a seat's name as the server gives it: a nickname, or
// a bot's "bot:LEVEL" ("bot:LEVEL N" where several bots of a level share
// the room) in the current language.
function storedName(s) {
  const m = /^bot:(\w+)(?: (\d+))?$/.exec(s || "");
  if (!m) return s;
  const level = t(`level.${m[1]}`);
  return m[2] ? t("home.botN", { level, n: m[2] }) : t("home.bot", { level });
}

// describe says what a replay's step did, as the play screen's feed says
// it: through the game's module where it has its own lines (before, the
// view before the step), else for claims, draws and new rounds.
function describe(events, names, deck, before) {
  const out = [];
  const claimed = events.some((e) => e.kind === "claim");
  const mod = before ? gameModule(before.game) : null;
  const text = (key, seat, more = {}) => t(key, {
    ...more,
    name: (seat ?? more.seat) === undefined ? "" : names(seat ?? more.seat),
    symbol: more.symbol === undefined ? "" : symbolName(deck, more.symbol),
    owner: more.owner === undefined ? "" : names(more.owner),
  });
  const f = {
    evs: events, view: before,
    line: (key, seat, more) => out.push(text(key, seat, more)),
    note: (key, more) => out.push(text(key, undefined, more)),
    sessionSeat: (gs) => gs,
    symbolsOf: (card) => cardSymbols(deck, card),
  };
  if (events.length === 1 && events[0].kind === "turn") {
    // Only the turn passed: the clock ran out on the seat before.
    out.push(text("feed.timeUp", events[0].seat));
  }
  for (const e of events) {
    if (mod && mod.feed && mod.feed(e, f)) continue;
    if (e.kind === "claim") out.push(t("play.claimed", { name: names(e.seat), symbol: symbolName(deck, e.symbol) }));
    else if (e.kind === "move" && !claimed && e.seat >= 0) out.push(t("play.drew", { name: names(e.seat) }));
    else if (e.kind === "round") out.push(t("play.newRound", { n: e.round }));
  }
  return out;
}

function replayGo(i) {
  S.replay.step = i;
  render();
}

let replayTimer = 0;
function replayToggle() {
  const R = S.replay;
  R.playing = !R.playing;
  clearInterval(replayTimer);
  if (R.playing) {
    replayTimer = setInterval(() => {
      if (!S.replay || S.route.screen !== "replay" || !S.replay.playing) { clearInterval(replayTimer); return; }
      const n = S.replay.data.steps.length;
      if (S.replay.step >= n - 1) { S.replay.playing = false; clearInterval(replayTimer); render(); return; }
      replayGo(S.replay.step + 1);
    }, 900);
  }
  render();
}

function replayKey(e) {
  const R = S.replay;
  if (!R || !R.data) return;
  const n = R.data.steps.length;
  if (e.key === "ArrowRight") { e.preventDefault(); replayGo(R.step + 1); }
  else if (e.key === "ArrowLeft") { e.preventDefault(); replayGo(R.step - 1); }
  else if (e.key === "Home") replayGo(0);
  else if (e.key === "End") replayGo(n - 1);
  else if (e.key === " ") { e.preventDefault(); replayToggle(); }
}

// ---- start -------------------------------------------------------------

function start() {
  forgetOldSeats();
  const code = S.route.code;
  if (code) {
    // A reload of the tab that holds the seat takes it back; another tab
    // offers it (joinFirst).
    const held = heldSeat(code);
    if (held && held.tab === TAB && S.name) resumeSeat(code, held);
  }
  loadGames().then(render, gamesFailed);
  render();
}

start();
