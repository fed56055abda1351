/** Reading what the two drivers (node-postgres, PGlite) answer to raw SQL the same way. */

/** Whether a database error is a unique violation (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  // drizzle may wrap the driver's error as `cause`.
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** The rows of `db.execute(sql...)`: both drivers answer with a result object carrying `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? [];
}
