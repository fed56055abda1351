import { appendFileSync } from "node:fs";
import { AsyncLocalStorage, AsyncResource } from "node:async_hooks";
import type { Pool } from "pg";

/**
 * Bench rig only (`npm run bench`, issue 19): with BENCH_COUNT_ROUND_TRIPS set, every statement
 * the app sends to its database inside a request is counted, and lib/http/route.ts answers the
 * count in `X-DB-Round-Trips`. Off, nothing is wrapped and nothing is counted. Counting is not
 * free (an async context around every request and a wrapper around every statement: a fifth of a
 * webhook's CPU), so the bench counts on an app of its own and measures speed on one without.
 */
export const countingRoundTrips = !!process.env.BENCH_COUNT_ROUND_TRIPS || !!process.env.BENCH_QUERY_LOG;

/**
 * With BENCH_QUERY_LOG=FILE as well, every statement is written to FILE when the process exits,
 * one JSON line each (its text, milliseconds until its answer, rows): the query log of issue 19.
 */
const queryLogFile = process.env.BENCH_QUERY_LOG;
const queryLog: string[] = [];
if (queryLogFile) process.once("exit", () => appendFileSync(queryLogFile, queryLog.join("")));

function logged(args: unknown[], started: number, result: unknown) {
  const first = args[0] as string | { text?: string; sql?: string } | undefined;
  const text = typeof first === "string" ? first : (first?.text ?? first?.sql ?? "?");
  const rows = (result as { rows?: unknown[] } | undefined)?.rows?.length ?? null;
  queryLog.push(JSON.stringify({ sql: text.replace(/\s+/g, " "), ms: performance.now() - started, rows }) + "\n");
  return result;
}

// One store per process: Next bundles instrumentation (which opens the database) and each route
// separately, so a module-level store would be a different one in each bundle.
const STORE = Symbol.for("bank-checkout.round-trips");
const store: AsyncLocalStorage<{ n: number }> = ((globalThis as Record<symbol, unknown>)[STORE] ??=
  new AsyncLocalStorage<{
    n: number;
  }>()) as AsyncLocalStorage<{ n: number }>;

/** Runs `work` counting the database round trips it makes; `n` is read after it ends. */
export function withRoundTripCount<T>(work: () => Promise<T>): Promise<[T, number]> {
  const counter = { n: 0 };
  return store.run(counter, async (): Promise<[T, number]> => [await work(), counter.n]);
}

/** One trip to the database, counted against the request it is made for. */
export function countTrip(): void {
  const counter = store.getStore();
  if (counter) counter.n++;
}

/** Wraps the methods of `target` that each make one trip to the database. */
export function countTrips<T extends object>(target: T, methods: (keyof T)[]): T {
  for (const name of methods) {
    const original = target[name];
    if (typeof original !== "function") continue;
    target[name] = function (this: unknown, ...args: unknown[]) {
      countTrip();
      const started = performance.now();
      const callback = args.at(-1);
      // pg's pool calls a client's query with a callback, drizzle's transactions without one.
      if (queryLogFile && typeof callback === "function")
        args[args.length - 1] = (err: unknown, result: unknown) => callback(err, logged(args, started, result));
      const answer = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (!queryLogFile || !(answer instanceof Promise)) return answer;
      return answer.then((result: unknown) => logged(args, started, result));
    } as T[keyof T];
  }
  return target;
}

/** Counts every statement sent through a node-postgres pool against the request that sent it. */
export function countPoolTrips(pool: Pool): void {
  // Every statement, a transaction's BEGIN and COMMIT included, goes through a client's query.
  pool.on("connect", (client) => countTrips(client, ["query"]));
  // A statement that waits for a free connection is sent from a callback the pool calls when a
  // connection is released, in the context of the request that released it: bound here to the
  // request that asked. (A promise's continuation already runs in the context of its awaiter.)
  const connect = pool.connect.bind(pool) as (callback?: (...args: unknown[]) => void) => unknown;
  pool.connect = ((callback?: (...args: unknown[]) => void) =>
    callback ? connect(AsyncResource.bind(callback)) : connect()) as Pool["connect"];
}
