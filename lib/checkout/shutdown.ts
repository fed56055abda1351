import { closeDatabase, stopBackgroundWork } from "./app-context";

// Within the 30 s most orchestrators give between SIGTERM and SIGKILL.
const MOST_MS = 20_000;

/**
 * Graceful shutdown on SIGTERM (and SIGINT): Next's own handler stops taking connections, waits
 * for the requests in flight, then calls process.exit. Alongside it, the background work stops
 * claiming jobs and finishes or gives back those it holds; Next's exit is held until that is done
 * and the database is closed, then goes ahead (ADR 17).
 */
export function installGracefulShutdown(): void {
  let started = false;
  const onSignal = (signal: string) => {
    if (started) return;
    started = true;
    console.info(`${signal}: finishing the requests in flight, then stopping`);
    const stopped = stopBackgroundWork();
    const exit = process.exit.bind(process);
    const settle = (code?: number | string | null) => {
      const deadline = new Promise((resolve) => setTimeout(resolve, MOST_MS).unref());
      void Promise.race([stopped.then(closeDatabase), deadline])
        .catch((err: unknown) => console.error("shutdown:", err))
        .finally(() => exit(code));
    };
    process.exit = settle as typeof process.exit;
  };
  process.once("SIGTERM", () => onSignal("SIGTERM"));
  process.once("SIGINT", () => onSignal("SIGINT"));
}
