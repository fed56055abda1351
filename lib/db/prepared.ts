import type { Db } from "./client";

/**
 * A statement built once per database instead of on every request. Building a query is work
 * (drizzle walks the whole query tree: 0.25 ms for the status update's read, more than the
 * database takes to answer it; issue 19), and on Postgres the named statement is also parsed and
 * planned once per connection. Values go in as `sql.placeholder(name)`.
 */
export function prepared<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let statement = built.get(db);
    if (!statement) {
      statement = build(db);
      built.set(db, statement);
    }
    return statement;
  };
}
