// Building elements without markup: every string becomes a text node, so
// nicknames and other text from users can never be read as HTML.

// h creates an element: h("button", {class: "x", onclick: f}, "text", child…).
// Attributes starting with "on" are listeners; "dataset" sets data-*;
// false, null and undefined attributes and children are skipped.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === false || v == null) continue;
      if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k === "value") el.value = v;
      else if (k === "checked") el.checked = !!v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  appendAll(el, children);
  return el;
}

// append adds children to el like h does, skipping null and false.
export function append(el, ...children) {
  appendAll(el, children);
  return el;
}

function appendAll(el, children) {
  for (const c of children) {
    if (c == null || c === false) continue;
    if (Array.isArray(c)) appendAll(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

// replace empties el and fills it with children.
export function replace(el, ...children) {
  el.replaceChildren();
  appendAll(el, children);
  return el;
}

// getJSON fetches url and decodes its JSON body, failing with the status
// line for an answer that is not 2xx.
export async function getJSON(url) {
  const r = await fetch(url, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${r.statusText}`);
  return r.json();
}
