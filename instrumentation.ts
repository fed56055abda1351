/**
 * Next.js calls `register()` once when a server instance starts: the one place that builds the
 * application context and starts its background work (lib/checkout/app-context.ts). Not during
 * `next build`, and not in the Edge runtime, which has no database.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Before anything loads node-postgres, so its statements are traced (ADR 35). Without an OTLP
  // endpoint only this small module is loaded, never the SDK.
  const tracing = await import("./lib/tracing/start");
  if (tracing.tracingWanted()) {
    const started = await tracing.startTracing();
    if (started) tracing.flushTracesOnExit(started);
  }
  // First: every log line of this server, Next's own included, goes out without personal data.
  const { installLogRedaction } = await import("./lib/log/logger");
  installLogRedaction();
  const { stampPeerAddress } = await import("./lib/http/client-address");
  await stampPeerAddress();
  const { startBackgroundWork } = await import("./lib/checkout/app-context");
  await startBackgroundWork(); // exits the process with one line when the database cannot be opened
  const [{ appContext }, { env }, { settleStaff }] = await Promise.all([
    import("./lib/checkout/app-context"),
    import("./lib/env"),
    import("./lib/staff/start-up"),
  ]);
  const noStaff = await settleStaff((await appContext()).db, env());
  if (noStaff) console.warn(noStaff);
  const { installGracefulShutdown } = await import("./lib/checkout/shutdown");
  installGracefulShutdown();
}
