// A POST's floor for `npm run bench`: what the framework alone costs to hand a route its JSON body
// (a webhook-sized one) and answer.
export const dynamic = "force-dynamic";

export async function POST(request) {
  const body = await request.json();
  return Response.json({ ok: true, id: body.id ?? null });
}
