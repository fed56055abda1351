// The bank list's floor for `npm run bench`: a route handler answering, from memory, an answer the
// bench gave it (PUT: its headers and body, as the app's GET /api/banks sent them). What the bank
// list costs beyond it is ours; what it shares with it is the framework's handling of that answer.
export const dynamic = "force-dynamic";

let kept = { headers: { "Content-Type": "application/json" }, body: "{}" };

export async function PUT(request) {
  const { headers, body } = await request.json();
  kept = { headers, body };
  return new Response(null, { status: 204 });
}

export function GET() {
  return new Response(kept.body, { headers: kept.headers });
}
