/**
 * Runs `round` every `intervalMs` in this process, one at a time: a tick that finds the last round
 * still running is skipped. A round that fails is reported to `failed` and the next one runs at its
 * time. Returns a stop for shutdown: no new round, and the one under way is waited for. The timer
 * keeps no process alive.
 */
export function everyInterval(
  round: () => Promise<unknown>,
  intervalMs: number,
  failed: (err: unknown) => void,
  /** What the round is called in the metrics (a fixed word, e.g. "reconcile"). */
  name = "other",
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    const started = performance.now();
    const ended = (ok: boolean) => {
      try {
        roundHolder.__roundObserver?.(name, performance.now() - started, ok);
      } catch {
        // The metrics' fault must not stop the work.
      }
    };
    running = round()
      .then(
        () => ended(true),
        (err: unknown) => {
          ended(false);
          failed(err);
        },
      )
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** Told how long each round took, by its name (lib/metrics, set by the app context). */
export type RoundObserver = (name: string, durationMs: number, ok: boolean) => void;

// On globalThis: the bundles that each hold a copy of this module share one observer.
const roundHolder = globalThis as { __roundObserver?: RoundObserver };

export function observeRounds(observer: RoundObserver | undefined): void {
  roundHolder.__roundObserver = observer;
}
