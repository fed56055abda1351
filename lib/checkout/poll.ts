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
  return orAfter(work, ms, () => null);
}

/**
 * The work's result, or what `late()` gives (or throws) when it takes longer than `ms`. The work goes
 * on; a failure of it after that is dropped.
 */
export function orAfter<T, L>(work: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<L>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (err) {
        reject(err);
      }
    }, ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, timedOut]).finally(() => clearTimeout(timer));
}
