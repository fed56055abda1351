/**
 * Reads until `done` says so or `timeoutMs` passes, and returns the last read. For waiting on
 * another request's work that lands in the database moments later (a replayed attempt, a linking
 * code being traded, a racing token refresh).
 */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
