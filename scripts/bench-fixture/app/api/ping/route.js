// The framework's floor for `npm run bench` (issue 19): a route handler doing nothing but answer
// a small JSON, built and started by the same Next as the app, with the app's server options.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ ok: true, at: Date.now() });
}
