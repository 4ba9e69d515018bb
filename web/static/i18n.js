// The interface text in every language the client speaks. Each language's
// dictionary is a module of its own, lang/LANG.js, and only the chosen
// language's is loaded (setLang), when it is chosen. Keys are looked up in
// the chosen language; {name} placeholders are filled from the parameters.
// Every string is inserted as text, never as markup. A game's own texts
// (its title, its rule, its options) are not here: they come with the game
// from GET /api/games (gameText). Nor are the texts of a game module's own
// table (games/NAME.js): the module carries them in every language, as its
// texts, and they are added to these when it is loaded (addTexts).

export const LANGS = ["en", "pl", "da", "ru", "zh", "it"];

export const LANG_NAMES = {
  en: "English", pl: "Polski", da: "Dansk", ru: "Русский", zh: "中文", it: "Italiano",
};

let current = "en";
// dict is the chosen language's dictionary (lang/LANG.js); empty until
// setLang has loaded one, when t answers with the keys.
let dict = {};
// added holds the game modules' texts by language (addTexts).
const added = Object.fromEntries(LANGS.map((l) => [l, {}]));
// asked counts setLang's calls, so that a dictionary arriving after a
// later choice's is not put in its place.
let asked = 0;

// pickLang returns the stored language, else the browser's first language
// the client speaks, else English.
export function pickLang() {
  const stored = localStorage.getItem("dobble.lang");
  if (LANGS.includes(stored)) return stored;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

// setLang loads the dictionary of language l (English for a language the
// client does not speak) and makes it the chosen one, remembered for the
// next visit; it resolves once t speaks it. When a later call has chosen
// another language in the meantime, the later choice stands.
export async function setLang(l) {
  const want = LANGS.includes(l) ? l : "en";
  const n = ++asked;
  const mod = await import(`./lang/${want}.js`);
  if (n !== asked) return;
  current = want;
  dict = mod.default;
  localStorage.setItem("dobble.lang", current);
  document.documentElement.lang = current;
}

export function lang() { return current; }

// addTexts adds a game module's texts ({lang: {key: text}}, every key
// beginning with the game's name) to those t looks up, in every language,
// so that they follow a change of language; a text the module lacks in the
// chosen language is shown in its English.
export function addTexts(texts) {
  for (const l of LANGS) Object.assign(added[l], texts[l]);
}

// t returns the text for key in the current language with {name}
// placeholders filled from params; an unknown key is returned as is. A
// text that depends on a count has one form per plural category of its
// language ("KEY#one", "KEY#few", "KEY#many", "KEY#other", as
// Intl.PluralRules names them): params.n picks the form, and a form the
// dictionary lacks falls back to "KEY#other".
export function t(key, params) {
  const text = look(key) ?? pluralForm(key, params) ?? key;
  return fill(text, params);
}

// look returns the text of key in the current language, else a game
// module's English text, else undefined.
function look(key) {
  return dict[key] ?? added[current][key] ?? added.en[key];
}

// rulesOf holds the plural rules of each language used so far.
const rulesOf = {};

// pluralForm returns the form of a plural text for the count params.n, or
// undefined when key has no plural forms.
function pluralForm(key, params) {
  if (look(`${key}#other`) === undefined) return undefined;
  const n = Number(params && params.n);
  const rules = rulesOf[current] ??= new Intl.PluralRules(current);
  return look(`${key}#${rules.select(Number.isFinite(n) ? n : 0)}`) ?? look(`${key}#other`);
}

// fill fills the {name} placeholders of s from params, leaving those
// params lacks.
export function fill(s, params) {
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// gameText returns what pick finds in a game's texts (the texts of its
// entry in GET /api/games, by language) in the current language, else in
// English, else undefined: the caller then shows what the game's Info
// says (its English title, an option's name and doc).
export function gameText(info, pick) {
  const texts = (info && info.texts) || {};
  for (const l of [current, "en"]) {
    const v = texts[l] ? pick(texts[l]) : undefined;
    if (v) return v;
  }
  return undefined;
}

// amount says n of a game's unit ("1 card", "5 butter pats", "2 karty")
// in the current language, in the plural form n takes there, or as the
// game names the unit when the dictionaries lack it.
export function amount(n, unit) {
  const key = `unit.${unit}`;
  const s = t(key, { n });
  return s === key ? `${n} ${unit}` : s;
}
