/**
 * The merchant's notifyUrl, as an unreliable merchant runs it: it checks each notification's
 * signature as the README says, records when it arrived, and answers 200 — except that the first
 * delivery of some notifications is answered slowly (seconds) or with a 500, so the outbox's
 * retries and its per-delivery timeouts are exercised. Only the first delivery misbehaves, so a
 * run settles within one retry (10 s). With `faults` false it always answers 200 at once (the soak).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { Rng } from "./rng";

export interface Receipt {
  id: string;
  event: string;
  checkoutId: string;
  at: number;
  /** What we answered: a repeat after a 2xx is a duplicate; after a 500 it is a retry. */
  status: number;
}

export function startReceiver(
  port: number,
  secret: string,
  rng: Rng,
  opts: { faults?: boolean } = {},
): Promise<{ server: Server; receipts: Receipt[]; badSignatures: () => number }> {
  const faults = opts.faults ?? true;
  const receipts: Receipt[] = [];
  const seen = new Set<string>();
  let bad = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const [, t, v1] = String(req.headers["checkout-signature"]).match(/^t=(\d+),v1=([0-9a-f]{64})$/) ?? [];
      const expected = createHmac("sha256", secret).update(`${t}.${raw}`).digest("hex");
      if (!t || !v1 || !timingSafeEqual(Buffer.from(v1), Buffer.from(expected))) {
        bad++;
        res.writeHead(401).end();
        return;
      }
      const body = JSON.parse(raw) as { id: string; event: string; checkout: { id: string } };
      const first = !seen.has(body.id);
      seen.add(body.id);
      const roll = first && faults ? rng.next() : 1;
      const status = roll < 0.1 ? 500 : 200;
      const delay = roll >= 0.1 && roll < 0.2 ? 2000 + rng.next() * 4000 : 0;
      receipts.push({ id: body.id, event: body.event, checkoutId: body.checkout.id, at: Date.now(), status });
      setTimeout(() => res.writeHead(status).end(), delay);
    });
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () => resolve({ server, receipts, badSignatures: () => bad })),
  );
}
