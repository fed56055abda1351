import path from "node:path";
import { Duplex } from "node:stream";
import { Worker } from "node:worker_threads";
import type { Dump } from "../backup/format";

/**
 * Embedded PGlite on a thread of its own (lib/db/pglite-worker.mjs), spoken to over the Postgres
 * wire protocol like a server: node-postgres gets a socket whose bytes go to that thread. On the
 * app's thread, every statement's run in the WASM Postgres blocked the event loop (issue 19).
 */
export interface PgliteBackend {
  /** A new connection's socket, for node-postgres's `stream` option. */
  socket(): Duplex;
  close(): Promise<void>;
  /** A consistent copy of the database, for a backup (lib/backup, ADR 37). */
  dump(): Promise<Dump>;
  /** The database's thread. */
  readonly thread: Worker;
}

type Answer = { id: number; bytes?: Uint8Array; dump?: Dump; failed?: string };

const workerFile = () => path.join(process.cwd(), "lib/db/pglite-worker.mjs");

export async function startPgliteBackend(
  dataDir: string,
  opts: {
    /** Called once if the thread stops without being closed: nothing the database held is reachable. */
    onLost?: (err: Error) => void;
  } = {},
): Promise<PgliteBackend> {
  // Nothing of the app's own flags (a loader, --input-type of a script given with -e) applies to
  // the worker's one plain file.
  const worker = new Worker(workerFile(), { workerData: { dataDir }, execArgv: [] });
  const waiting = new Map<number, (answer: Answer) => void>();
  let nextId = 1;
  let gone: Error | undefined;
  const fail = (err: Error) => {
    gone ??= err;
    for (const answered of waiting.values()) answered({ id: 0, failed: err.message });
    waiting.clear();
  };

  await new Promise<void>((resolve, reject) => {
    const started = (m: { ready?: true; failed?: string }) => {
      worker.off("error", reject);
      if (m.ready) resolve();
      else reject(new Error(`the embedded database did not open: ${m.failed}`));
    };
    worker.once("message", started);
    worker.once("error", reject);
  });
  worker.on("message", (answer: Answer) => {
    const answered = waiting.get(answer.id);
    waiting.delete(answer.id);
    answered?.(answer);
  });
  // Should the thread ever die, every statement from then on fails at once with this reason,
  // instead of waiting for an answer that will not come.
  let closing = false;
  worker.on("error", (err) => fail(err));
  worker.on("exit", (code) => {
    const err = new Error(`the embedded database's thread stopped (exit code ${code})`);
    fail(err);
    if (!closing) opts.onLost?.(err);
  });

  const exchange = (message: { conn?: number; bytes?: Uint8Array; close?: true; dump?: true }) =>
    new Promise<Answer>((resolve) => {
      if (gone) return resolve({ id: 0, failed: gone.message });
      const id = nextId++;
      waiting.set(id, resolve);
      worker.postMessage({ id, ...message });
    });
  let nextConn = 1;

  return {
    thread: worker,
    socket: () => {
      const conn = nextConn++;
      return new BackendSocket(
        (bytes) => exchange({ conn, bytes }),
        () => {
          if (!gone) worker.postMessage({ conn, ended: true });
        },
      );
    },
    async dump() {
      const answer = await exchange({ dump: true });
      if (answer.failed || !answer.dump) throw new Error(`the embedded database was not dumped: ${answer.failed}`);
      return answer.dump;
    },
    async close() {
      if (gone) return;
      closing = true;
      await exchange({ close: true });
      await worker.terminate();
    },
  };
}

/**
 * What node-postgres takes for a TCP socket. The messages it writes in one go (Parse, Bind,
 * Describe, Execute, Sync) travel to the database together, and its answer comes back whole.
 */
class BackendSocket extends Duplex {
  #outgoing: Buffer[] = [];
  #ended = false;
  constructor(
    private readonly exchange: (bytes: Uint8Array) => Promise<Answer>,
    private readonly ended: () => void,
  ) {
    super();
  }

  connect() {
    process.nextTick(() => this.emit("connect"));
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  ref() {
    return this;
  }
  unref() {
    return this;
  }

  override _read() {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void) {
    if (this.#outgoing.length === 0) process.nextTick(() => this.#send());
    this.#outgoing.push(chunk);
    done();
  }

  override _final(done: (err?: Error | null) => void) {
    this.#end();
    this.push(null);
    done();
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void) {
    this.#end();
    done(err);
  }

  #end() {
    if (this.#ended) return;
    this.#ended = true;
    this.ended();
  }

  #send() {
    // Copied into a buffer of their own: a small Buffer is a view of a shared 8 KB slab, which
    // posting to the thread would copy whole.
    const bytes = new Uint8Array(Buffer.concat(this.#outgoing));
    this.#outgoing = [];
    void this.exchange(bytes).then((answer) => {
      if (this.#ended || this.destroyed) return;
      if (answer.failed) this.destroy(new Error(answer.failed));
      else if (answer.bytes?.length)
        this.push(Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.length));
    });
  }
}
