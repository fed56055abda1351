import { types, type PGlite } from "@electric-sql/pglite";

const asText = (value: string) => value;
/**
 * The type parsers drizzle-orm hands PGlite with every query: dates, times and intervals as the
 * text Postgres sent, which drizzle then maps itself (drizzle-orm/pglite/session.js).
 */
const DRIZZLE_PARSERS: Record<number, (value: string) => unknown> = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText, // numeric[]
  1115: asText, // timestamp[]
  1185: asText, // timestamptz[]
  1187: asText, // interval[]
  1182: asText, // date[]
};

type Query = PGlite["query"];
type QueryOptions = Parameters<Query>[2];

/**
 * PGlite copies its whole table of type parsers (several hundred entries) into a new object for
 * every query that brings parsers of its own, and drizzle brings the same nine with every query:
 * about 0.12 ms a statement on this machine, most of a simple statement's cost (issue 19). So the
 * nine are set on the client once, and the per-query option, always the same, is dropped.
 */
export async function installDrizzleParsers(client: PGlite): Promise<void> {
  await client.waitReady;
  // After waitReady: PGlite sets its array parsers while starting, over anything given before.
  Object.assign(client.parsers, DRIZZLE_PARSERS);
  const withoutParsers = (options: QueryOptions): QueryOptions => {
    if (!options?.parsers) return options;
    const { parsers: _sameAsTheClients, ...rest } = options;
    return rest;
  };
  const fast = <T extends { query: Query }>(target: T): T => {
    const query = target.query.bind(target) as Query;
    target.query = ((text, params, options) => query(text, params, withoutParsers(options))) as Query;
    return target;
  };
  fast(client);
  const transaction = client.transaction.bind(client);
  client.transaction = ((fn) => transaction((tx) => fn(fast(tx)))) as PGlite["transaction"];
}
