// The WebSocket conversation with the server (docs/PROTOCOL.md, version 1):
// hello first, then requests; on a dropped connection it reconnects and
// calls onReconnect so the room can be resumed with the seat's token.

export class Conn {
  constructor({ name, lang, onMessage, onStatus, onReconnect }) {
    this.name = name;
    this.lang = lang;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onReconnect = onReconnect;
    this.ws = null;
    this.queue = [];
    this.ready = false;
    this.closed = false;
    this.retry = 0;
    this.everWelcomed = false;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    this.ready = false;
    this.onStatus("connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", v: 1, name: this.name, lang: this.lang }));
    };
    ws.onmessage = (e) => {
      let m;
      try { m = JSON.parse(e.data); } catch { return; }
      if (m.type === "welcome") {
        const again = this.everWelcomed;
        this.everWelcomed = true;
        this.ready = true;
        this.retry = 0;
        this.onStatus("open");
        if (again && this.onReconnect) this.onReconnect();
        const q = this.queue;
        this.queue = [];
        for (const x of q) ws.send(x);
        return;
      }
      this.onMessage(m);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ready = false;
      if (this.closed) return;
      this.onStatus("lost", e.reason);
      // Back off, with jitter, so that the players of a restarted server
      // do not all come back at the same moment.
      const wait = Math.min(5000, 250 * 2 ** this.retry++) * (0.5 + Math.random() / 2);
      setTimeout(() => { if (!this.closed) this.open(); }, wait);
    };
  }

  send(msg) {
    const s = JSON.stringify(msg);
    if (this.ready && this.ws.readyState === WebSocket.OPEN) this.ws.send(s);
    else this.queue.push(s);
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close(1000, "bye");
  }
}
