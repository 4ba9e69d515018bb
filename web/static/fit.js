// The table on a phone. On a small screen (a phone upright or turned) the
// cards a seat plays with, the shared ones and its own, are sized so that
// they are wholly on screen together, without scrolling, as large as the
// screen lets them be: the size of a card is found by trying sizes (a
// bisection of the width of a card, in pixels) and measuring the page the
// browser lays out with each. The other seats become compact strips
// (style.css, .table.fit): a name and a score, and their cards only where
// the seat plays against them.

const PHONE = "(max-width: 599px), (max-height: 499px)";

// phone reports whether the screen is a phone's.
export function phone() {
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
// are drawn small (.rest).
export function fitTable(table, claim) {
  const on = phone();
  const places = claim ? [...(claim.match || []), ...(claim.targets || [])] : [];
  const against = places.some((p) => p.whose === "others" || p.whose === "notMine");
  const mine = new Set(places.filter((p) => p.whose === "mine" || p.whose === "notMine" || !p.whose).flatMap((p) => p.kinds));
  table.classList.toggle("fit", on);
  table.classList.toggle("land", on && window.innerWidth > window.innerHeight);
  table.querySelector(".others")?.classList.toggle("against", against);
  // Where the seat taps its own card, a centre of many cards (a layout to
  // rescue from) is drawn at half the size of the seat's own.
  table.classList.toggle("tapmine", places.some((p) => p.whose === "mine"));
  for (const z of table.querySelectorAll(".seat.mine [data-zone]")) z.classList.toggle("rest", !mine.has(z.dataset.kind));
  if (!on) {
    table.style.removeProperty("--fit");
    hitAreas(table);
    return;
  }
  const others = table.querySelectorAll(".others .seat").length;
  const fits = () => {
    const s = parseFloat(table.style.getPropertyValue("--fit"));
    table.style.setProperty("--fit-o", `${Math.max(28, others > 1 ? s * 0.42 : s * 0.8)}px`);
    return table.scrollHeight <= room(table) && table.scrollWidth <= table.clientWidth + 0.5;
  };
  bisect(table, "--fit", 40, Math.min(table.clientWidth, 420), fits);
  fits();
  hitAreas(table);
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

// TARGET is the least width of the disc a finger taps a symbol in, in
// pixels.
const TARGET = 44;

// hitAreas gives each symbol of root's cards that can be acted on a disc
// of its own to be tapped in (circle.hit, transparent, under its picture):
// centred on the symbol, TARGET pixels wide where its nearest neighbour's
// centre is at least that far, else half-way to that centre, so that no
// two symbols' discs overlap and a tap near a small symbol still names it.
// A symbol drawn wider than its disc keeps its own shape as its target.
export function hitAreas(root) {
  for (const svg of root.querySelectorAll("svg.face")) {
    for (const c of svg.querySelectorAll("circle.hit")) c.remove();
    const gs = [...svg.querySelectorAll("g[data-symbol][tabindex]")];
    if (gs.length === 0 || svg.getBoundingClientRect().width === 0) continue;
    const at = gs.map((g) => {
      const b = g.getBoundingClientRect();
      return { g, x: b.left + b.width / 2, y: b.top + b.height / 2, w: Math.min(b.width, b.height) };
    });
    for (const p of at) {
      let near = Infinity;
      for (const q of at) if (q !== p) near = Math.min(near, Math.hypot(p.x - q.x, p.y - q.y));
      const r = Math.min(TARGET / 2, near / 2);
      if (2 * r <= p.w) continue;
      const m = p.g.getScreenCTM();
      const scale = m ? Math.hypot(m.a, m.b) : 0;
      if (!scale) continue;
      const box = p.g.getBBox();
      const hit = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      hit.setAttribute("class", "hit");
      hit.setAttribute("cx", String(box.x + box.width / 2));
      hit.setAttribute("cy", String(box.y + box.height / 2));
      hit.setAttribute("r", String(r / scale));
      hit.setAttribute("fill", "transparent");
      hit.setAttribute("pointer-events", "all");
      p.g.prepend(hit);
    }
  }
}
