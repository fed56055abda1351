// A payment start's floor for `npm run bench`: a route handler that relays a POST (its body and
// the provider's headers, as they came) to the provider on this machine named in `X-Relay-To`,
// over node:http as lib/pis/send.ts does, and answers with the provider's status and body. What a
// payment start costs beyond it is ours: the database, the checks, the status machine.
import http from "node:http";

export const dynamic = "force-dynamic";

const RELAYED = ["client-id", "client-secret", "redirect-url", "webhook-url", "content-type"];

export async function POST(request) {
  const to = request.headers.get("x-relay-to") ?? "";
  const target = URL.canParse(to) ? new URL(to) : undefined;
  // Only to this machine: the fixture must not be an open relay while the bench runs.
  if (target?.protocol !== "http:" || !["localhost", "127.0.0.1"].includes(target.hostname))
    return Response.json({ error: "X-Relay-To must be an http URL on localhost" }, { status: 400 });
  const body = Buffer.from(await request.text(), "utf8");
  const headers = { "Content-Length": String(body.length) };
  for (const name of RELAYED) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const answer = await new Promise((resolve, reject) => {
    const req = http.request(target, { method: "POST", headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 502, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
  return new Response(answer.text, { status: answer.status, headers: { "Content-Type": "application/json" } });
}
