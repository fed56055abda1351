/**
 * Reads until `done` says so or `timeoutMs` passes, and returns the last read. For waiting on
 * another request's work that lands in the database moments later (a replayed attempt, a linking
 * code being traded, a racing token refresh).
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The work's result, or null when it takes longer than `ms`: for extras that may not hold a page
 * up. Late work is dropped, its failure included.
 */
export function withinMs<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
