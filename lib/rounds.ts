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
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = round()
      .then(() => undefined, failed)
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
