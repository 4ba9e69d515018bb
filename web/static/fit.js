// The table on a phone. On a small screen (a phone upright or turned) the
// cards a seat plays with, the shared ones and its own, are sized so that
// they are wholly on screen together, without scrolling, as large as the
// screen lets them be: the size of a card is found by trying sizes (a
// bisection of the width of a card, in pixels) and measuring the page the
// browser lays out with each. The other seats become compact strips
// (style.css, .table.fit): a name and a score, and their cards only where
// the seat plays against them. Where the table holds more cards than the
// screen shows with symbols large enough for a finger, a tap on a card
// brings it up large first (markCrowded).

const PHONE = "(max-width: 599px), (max-height: 499px)";

// phone reports whether the screen is a phone's.
function phone() {
  return window.matchMedia(PHONE).matches;
}

// room is the height the element el may take, from its top to the bottom
// of the screen, with the page scrolled to its top.
function room(el) {
  return window.innerHeight - (el.getBoundingClientRect().top + window.scrollY) - 4;
}

// bisect sets the CSS variable name of el to the largest size in [lo, hi]
// pixels for which fits() holds (lo where none does).
function bisect(el, name, lo, hi, fits) {
  let best = lo;
  lo = Math.floor(lo);
  hi = Math.floor(hi);
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    el.style.setProperty(name, `${mid}px`);
    if (fits()) {
      best = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  el.style.setProperty(name, `${best}px`);
}

// fitTable sizes a table of claims (table.js) for the screen: on a phone
// it gets the class fit (and land when turned), its cards the width
// --fit, the other seats' cards --fit-o, and the whole table then fits
// between its top and the bottom of the screen, and within its width.
// The game's claim (Info.claim: its places, by kinds of zone and whose)
// says which cards the seat plays with: the other seats' strips show
// their cards only where claims are made against them (.others.against),
// and the seat's own zones that no claim names (the cards it won, say)
// show their label alone (.rest), as the draw piles and the cards set
// aside do.
export function fitTable(table, claim) {
  const on = phone();
  const places = claim ? [...(claim.match || []), ...(claim.targets || [])] : [];
  const against = places.some((p) => p.whose === "others" || p.whose === "notMine");
  const mine = new Set(places.filter((p) => p.whose === "mine" || p.whose === "notMine" || !p.whose).flatMap((p) => p.kinds));
  table.classList.toggle("fit", on);
  table.classList.toggle("land", on && window.innerWidth > window.innerHeight);
  table.querySelector(".others")?.classList.toggle("against", against);
  // Where the seat taps its own card, a centre of many cards (a layout to
  // rescue from) gets the room the seat's own card leaves (below).
  table.classList.toggle("tapmine", places.some((p) => p.whose === "mine"));
  for (const z of table.querySelectorAll(".seat.mine [data-zone]")) z.classList.toggle("rest", !mine.has(z.dataset.kind));
  if (!on) {
    table.style.removeProperty("--fit");
    delete table.dataset.fit;
    hitAreas(table);
    table.classList.remove("crowded");
    return;
  }
  // The sizes found hold while the screen and what the table shows (which
  // zones, how many cards each) stay the same: most updates only change
  // which cards are shown.
  const key = `${window.innerWidth}x${window.innerHeight}@${Math.round(table.getBoundingClientRect().top + window.scrollY)}:${
    [...table.querySelectorAll("[data-zone]")].map((z) => (z.hidden ? "-" : z.querySelectorAll(".card").length)).join(",")}`;
  if (table.dataset.fit === key) {
    hitAreas(table);
    markCrowded(table, places);
    return;
  }
  table.dataset.fit = key;
  const others = table.querySelectorAll(".others .seat").length;
  const fits = () => {
    const s = parseFloat(table.style.getPropertyValue("--fit"));
    table.style.setProperty("--fit-o", `${Math.max(28, others > 1 ? s * 0.42 : s * 0.8)}px`);
    return table.scrollHeight <= room(table) && table.scrollWidth <= table.clientWidth + 0.5;
  };
  if (table.classList.contains("tapmine") && table.querySelector(".shared.grid")) {
    // The seat's own card first, as large as a card needs to be for its
    // symbols to be tapped (TAP), with a centre of many cards at its least
    // (--fit-g); then the centre's cards as large as what is left allows.
    table.style.setProperty("--fit-g", "32px");
    bisect(table, "--fit", 40, Math.min(table.clientWidth, TAP), fits);
    fits();
    bisect(table, "--fit-g", 32, parseFloat(table.style.getPropertyValue("--fit")), fits);
  } else {
    table.style.removeProperty("--fit-g");
    bisect(table, "--fit", 40, Math.min(table.clientWidth, 420), fits);
    fits();
  }
  hitAreas(table);
  markCrowded(table, places);
}

// FINGER is the least width and height of a symbol's region a finger
// taps, in pixels.
const FINGER = 44;

// ROOMY is how many fingers (FINGER) wide a card's share per symbol (its
// area over its symbols, as a square) must be for the card to be tapped on
// the table: the regions of a card's symbols differ from deal to deal, the
// smallest about two thirds to three quarters of that share, and a card
// with a smaller share has symbols under a finger in most deals.
const ROOMY = 1.3;

// markCrowded gives a table on a phone the class crowded when the symbols
// the seat taps (those of its own cards where the game's claim names one,
// else those of the shared cards) are smaller than a finger: a card's
// share per symbol is under ROOMY fingers, or a symbol's region is
// measured under one. Such a table holds more cards than the screen shows
// that large (seven stacks a seat, a grid of twelve). The share, which
// depends on the cards' size and not on the deal, decides for the most
// part, so that a table stays crowded, or not, from deal to deal. A tap
// on a card of a crowded table brings it up large (table.js, the focus
// view), its symbols then tapped there.
function markCrowded(table, places) {
  const mine = places.some((p) => p.whose === "mine");
  const kinds = new Set(places.filter((p) => (mine ? p.whose === "mine" : p.whose === "shared")).flatMap((p) => p.kinds));
  let least = Infinity;
  for (const z of table.querySelectorAll(mine ? ".seat.mine [data-zone]" : ".shared [data-zone]")) {
    if (z.hidden || !kinds.has(z.dataset.kind)) continue;
    for (const svg of z.querySelectorAll("svg.face")) {
      const w = svg.getBoundingClientRect().width;
      const n = svg.querySelectorAll("g[data-symbol]").length;
      if (w > 0 && n > 0) least = Math.min(least, (w / 2) * Math.sqrt(Math.PI / n) / ROOMY);
      for (const hit of svg.querySelectorAll("path.hit")) {
        const b = hit.getBoundingClientRect();
        if (b.width > 0) least = Math.min(least, b.width, b.height);
      }
    }
  }
  table.classList.toggle("crowded", least < FINGER);
}

// fitOwn sizes the table of a game that draws its own (extra.js) for the
// screen: on a phone it gets the class fit (and land when turned), its
// cards sizes relative to --xfit (style.css), and the whole of it then
// fits between its top and the bottom of the screen.
export function fitOwn(el) {
  const on = phone();
  el.classList.toggle("fit", on);
  el.classList.toggle("land", on && window.innerWidth > window.innerHeight);
  if (on) {
    bisect(el, "--xfit", 40, Math.min(el.clientWidth, 420), () => el.scrollHeight <= room(el) && el.scrollWidth <= el.clientWidth + 0.5);
  } else {
    el.style.removeProperty("--xfit");
  }
  hitAreas(el);
}

// TAP is the width of a card whose symbols are large enough to tap, in
// pixels: a card is not made larger than this at the expense of others.
const TAP = 300;

// hitAreas gives each symbol of root's cards that can be acted on a region
// of the card of its own to be tapped in: its cell of the card's power
// diagram (each symbol a circle the size of its picture, at most half the
// way to the nearest other symbol), so that a tap anywhere on the card
// names the symbol whose region it is in, a tap beside a small symbol
// names it, and every symbol's region is at least as wide as its circle.
// A tap on a picture's own ink is always that picture's. The regions are
// transparent paths (path.hit, data-hit naming the symbol) in a group under
// the card's symbols (g.hits), in the card's own units; hitSymbol finds the
// symbol of one.
export function hitAreas(root) {
  for (const svg of root.querySelectorAll("svg.face")) {
    for (const c of svg.querySelectorAll("g.hits")) c.remove();
    const gs = [...svg.querySelectorAll("g[data-symbol][tabindex]")];
    const vb = svg.viewBox.baseVal;
    const top = svg.getScreenCTM();
    if (gs.length === 0 || !vb || !vb.width || !top) continue;
    // Everything is worked out in the card's own units (its viewBox), so
    // that the size the card is drawn at, or a transition it is in, does
    // not matter.
    const toCard = top.inverse();
    const at = [];
    for (const g of gs) {
      const m = g.getScreenCTM();
      if (!m) continue;
      const local = toCard.multiply(m); // the symbol's units → the card's
      const b = g.getBBox();
      const c = new DOMPoint(b.x + b.width / 2, b.y + b.height / 2).matrixTransform(local);
      at.push({ g, x: c.x, y: c.y, r: (Math.min(b.width, b.height) / 2) * Math.hypot(local.a, local.b) });
    }
    // No circle reaches past half the way to another symbol's centre, so no
    // two overlap: a power diagram holds each of its circles whole in the
    // circle's own cell, and a small symbol in the hollow of a large one
    // (a crescent's) keeps a region as wide as its circle.
    const r = at.map((p) => Math.min(p.r, ...at.filter((q) => q !== p).map((q) => Math.hypot(q.x - p.x, q.y - p.y) / 2)));
    at.forEach((p, i) => (p.r = r[i]));
    const cx = vb.x + vb.width / 2;
    const cy = vb.y + vb.height / 2;
    const R = Math.min(vb.width, vb.height) / 2;
    const rim = [];
    for (let k = 0; k < 48; k++) rim.push([cx + R * Math.cos((k * Math.PI) / 24), cy + R * Math.sin((k * Math.PI) / 24)]);
    const group = document.createElementNS(SVG, "g");
    group.setAttribute("class", "hits");
    for (const p of at) {
      let cell = rim;
      for (const q of at) {
        if (q === p) continue;
        // The points nearer p than q in power: a·x + b·y ≤ c.
        const a = 2 * (q.x - p.x);
        const b = 2 * (q.y - p.y);
        const c = q.x * q.x + q.y * q.y - q.r * q.r - (p.x * p.x + p.y * p.y - p.r * p.r);
        cell = clip(cell, a, b, c);
        if (!cell.length) break;
      }
      if (!cell.length) continue;
      const hit = document.createElementNS(SVG, "path");
      hit.setAttribute("class", "hit");
      hit.setAttribute("data-hit", p.g.getAttribute("data-symbol"));
      hit.setAttribute("d", `M${cell.map(([x, y]) => `${x.toFixed(2)} ${y.toFixed(2)}`).join("L")}Z`);
      hit.setAttribute("fill", "transparent");
      hit.setAttribute("pointer-events", "all");
      group.append(hit);
    }
    // Under the symbols: a tap on a picture is the picture's.
    svg.insertBefore(group, gs[0].parentNode === svg ? gs[0] : svg.firstChild);
  }
}

const SVG = "http://www.w3.org/2000/svg";

// hitSymbol returns the symbol (g[data-symbol]) whose region (hitAreas)
// el is, or null.
export function hitSymbol(el) {
  if (!el || !el.matches || !el.matches("path.hit")) return null;
  return el.ownerSVGElement?.querySelector(`g[data-symbol="${el.getAttribute("data-hit")}"]`) || null;
}

// clip cuts the convex polygon poly ([[x, y]…]) to the half-plane
// a·x + b·y ≤ c.
function clip(poly, a, b, c) {
  const out = [];
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i];
    const q = poly[(i + 1) % poly.length];
    const fp = a * p[0] + b * p[1] - c;
    const fq = a * q[0] + b * q[1] - c;
    if (fp <= 0) out.push(p);
    if ((fp < 0 && fq > 0) || (fp > 0 && fq < 0)) {
      const t = fp / (fp - fq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  return out;
}
