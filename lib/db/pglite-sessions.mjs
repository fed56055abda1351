// Several connections to the one PGlite backend, as if each had a session of its own (ADR 19).
// PGlite is one Postgres session: what one connection sends would otherwise run inside another's
// transaction, and a statement name one connection prepares would clash with the same name from
// another. So exchanges are run one at a time, in the order they came, except that while a
// connection is inside a transaction (its last answer's ReadyForQuery said so, or had none) only
// its own exchanges run, and the others wait; and each connection's statement names are its own.
// Plain JavaScript: the database's thread loads it as it is (lib/db/pglite-worker.mjs).

const MAX_NAME = 63; // Postgres cuts longer identifiers, and two cut names could be one.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class Sessions {
  #run;
  #queue = [];
  #owner = null;
  #running = false;
  #idle = [];
  #connections = new Map();

  /** @param {(bytes: Uint8Array) => Promise<Uint8Array>} run one exchange with the backend */
  constructor(run) {
    this.#run = run;
  }

  /** Bytes a connection wrote; `answered(bytes)` or `answered(undefined, reason)` once run. */
  send(conn, bytes, answered) {
    this.#queue.push({ conn, bytes, answered });
    void this.#pump();
  }

  /**
   * Runs `task` alone on the backend, between transactions: after every transaction open when it
   * was asked for has ended, before anything asked for after it. What it reads is what was
   * committed, whole (a backup, lib/backup).
   */
  exclusive(task) {
    return new Promise((resolve, reject) => {
      this.#queue.push({ task, resolve, reject });
      void this.#pump();
    });
  }

  /** The connection is gone: what it left open is rolled back, and its statements let go. */
  end(conn) {
    this.#queue.push({ conn, end: true });
    void this.#pump();
  }

  /**
   * Resolves once nothing runs that can: what waits behind a transaction that its connection never
   * ends would wait for ever, and is failed when the thread stops (lib/db/pglite-backend.ts).
   */
  drain() {
    if (!this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #pump() {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        const next = this.#next();
        if (next < 0) break;
        const [entry] = this.#queue.splice(next, 1);
        if (entry.end) await this.#end(entry.conn);
        else if (entry.task) await entry.task().then(entry.resolve, entry.reject);
        else await this.#exchange(entry);
      }
    } finally {
      this.#running = false;
      for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  /** Where in the queue the next exchange to run is, or -1 if none may run now. */
  #next() {
    if (this.#owner === null) return this.#queue.length > 0 ? 0 : -1;
    return this.#queue.findIndex((e) => e.conn === this.#owner);
  }

  async #exchange({ conn, bytes, answered }) {
    let connection = this.#connections.get(conn);
    if (!connection) {
      // A connection's first bytes are its startup message, which has no type byte.
      this.#connections.set(conn, (connection = { prefix: encoder.encode(`${conn}.`), names: new Set() }));
    } else if (bytes.length === 5 && bytes[0] === 0x58 /* X, Terminate */) {
      // Not passed on: PGlite's one session serves every connection. The socket's end follows
      // (lib/db/pglite-backend.ts), and that is where a connection is let go, goodbye or not.
      answered(new Uint8Array(0));
      return;
    } else {
      try {
        bytes = ownNames(bytes, connection.prefix, connection.names);
      } catch (err) {
        answered(undefined, String(err?.message ?? err));
        return;
      }
    }
    let answer;
    try {
      answer = await this.#run(bytes);
    } catch (err) {
      answered(undefined, String(err?.message ?? err));
      return;
    }
    // Idle ('I') lets the others in; inside a transaction ('T', or 'E' when it failed), or with no
    // ReadyForQuery yet, the backend stays this connection's.
    this.#owner = readyStatus(answer) === "I" ? null : conn;
    answered(answer);
  }

  async #end(conn) {
    const connection = this.#connections.get(conn);
    this.#connections.delete(conn);
    if (this.#owner === conn) {
      await this.#run(simpleQuery("rollback")).catch(() => {});
      this.#owner = null;
    }
    for (const name of connection?.names ?? []) {
      await this.#run(simpleQuery(`deallocate "${name.replaceAll('"', '""')}"`)).catch(() => {});
    }
  }
}

/** The status of the last ReadyForQuery in an answer ("I", "T" or "E"), or null if it has none. */
export function readyStatus(answer) {
  let status = null;
  for (let at = 0; at + 5 <= answer.length;) {
    const length = readInt32(answer, at + 1);
    if (answer[at] === 0x5a /* Z */) status = String.fromCharCode(answer[at + 5]);
    at += 1 + length;
  }
  return status;
}

/**
 * The same messages with every statement name prefixed (`prefix`, bytes): in Parse, Bind, and a
 * Describe or Close of a statement. The unnamed statement ("") is left alone: it lives only until
 * the next Parse, and a connection's exchange runs whole before another's.
 */
export function ownNames(bytes, prefix, names) {
  const parts = [];
  let from = 0;
  for (let at = 0; at < bytes.length;) {
    if (at + 5 > bytes.length) throw new Error("a message cut short");
    const type = bytes[at];
    const end = at + 1 + readInt32(bytes, at + 1);
    if (end > bytes.length) throw new Error("a message cut short");
    let nameAt = -1;
    if (type === 0x50 /* P */) nameAt = at + 5;
    else if (type === 0x42 /* B */)
      nameAt = bytes.indexOf(0, at + 5) + 1; // after the portal's name
    else if ((type === 0x44 /* D */ || type === 0x43) /* C */ && bytes[at + 5] === 0x53 /* S */) nameAt = at + 6;
    if (nameAt > 0) {
      const nameEnd = bytes.indexOf(0, nameAt);
      if (nameEnd < 0 || nameEnd >= end) throw new Error("a statement name without its end");
      if (nameEnd > nameAt) {
        // Bytes, not text: this runs for every named statement executed (its Bind).
        const length = prefix.length + nameEnd - nameAt;
        const name = () => decoder.decode(prefix) + decoder.decode(bytes.subarray(nameAt, nameEnd));
        if (length > MAX_NAME) throw new Error(`statement name too long: ${name()}`);
        if (type === 0x50) names.add(name());
        const head = new Uint8Array(5);
        head[0] = type;
        writeInt32(head, 1, end - at - 1 + prefix.length);
        parts.push(bytes.subarray(from, at), head, bytes.subarray(at + 5, nameAt), prefix, bytes.subarray(nameAt, end));
        from = end;
      }
    }
    at = end;
  }
  if (from === 0) return bytes;
  parts.push(bytes.subarray(from));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function simpleQuery(text) {
  const body = encoder.encode(text);
  const out = new Uint8Array(6 + body.length);
  out[0] = 0x51; // Q
  writeInt32(out, 1, 5 + body.length);
  out.set(body, 5);
  return out;
}

function readInt32(bytes, at) {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function writeInt32(bytes, at, value) {
  bytes[at] = value >>> 24;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}
