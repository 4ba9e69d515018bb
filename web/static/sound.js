// Short sounds made with WebAudio oscillators: no sound files. They can be
// switched off; the choice is remembered.

let ctx = null;
let on = localStorage.getItem("dobble.sound") !== "off";

export function soundOn() { return on; }

export function setSound(v) {
  on = !!v;
  localStorage.setItem("dobble.sound", on ? "on" : "off");
}

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

// tone plays notes [[frequency Hz, start s, length s]…] with a wave shape.
function tone(notes, type = "sine", gain = 0.15) {
  if (!on) return;
  const a = audio();
  if (!a) return;
  const t0 = a.currentTime;
  for (const [f, start, len] of notes) {
    const o = a.createOscillator();
    const g = a.createGain();
    o.type = type;
    o.frequency.setValueAtTime(f, t0 + start);
    g.gain.setValueAtTime(0, t0 + start);
    g.gain.linearRampToValueAtTime(gain, t0 + start + 0.01);
    g.gain.exponentialRampToValueAtTime(0.001, t0 + start + len);
    o.connect(g).connect(a.destination);
    o.start(t0 + start);
    o.stop(t0 + start + len + 0.02);
  }
}

export const sounds = {
  hit: () => tone([[660, 0, 0.12], [990, 0.08, 0.18]], "triangle"),
  miss: () => tone([[220, 0, 0.25], [180, 0.1, 0.3]], "sawtooth", 0.08),
  late: () => tone([[440, 0, 0.1], [330, 0.08, 0.15]], "square", 0.05),
  other: () => tone([[520, 0, 0.07]], "sine", 0.06),
  tick: () => tone([[880, 0, 0.08]], "sine", 0.1),
  go: () => tone([[1320, 0, 0.25]], "triangle", 0.15),
  over: () => tone([[523, 0, 0.15], [659, 0.15, 0.15], [784, 0.3, 0.3]], "triangle"),
};
