// Empty on purpose. Without a file of its own, the build takes the app's instrumentation.ts (the
// fixture sits inside the app's tree), and the bare route would run the app's start-up: its
// database, its background work.
export function register() {}
