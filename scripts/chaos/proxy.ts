/**
 * The load balancer in front of the instances, and the public APP_URL: round robin over the live
 * ones, X-Forwarded-For appended. A connection refused (the instance is dead) moves on to the next
 * instance, as a load balancer's health check would; a request cut off because its instance was
 * killed mid-request answers 502 and is counted apart from the app's own answers.
 *
 * Provider webhooks (the sandbox posts them to APP_URL) get the network's treatment: some are
 * dropped, sent twice to two instances, or held back so that later ones overtake them, unless
 * `webhookFaults` is false (the soak, which measures the app on a network that behaves).
 */
import { request, createServer, type IncomingMessage, type Server } from "node:http";
import type { Rng } from "./rng";

export interface Upstream {
  port: number;
  /** Bumped on every kill: a request that began under an older generation was cut off by it. */
  generation: number;
  alive: boolean;
}

export interface ProxyLog {
  /** Answers of the app itself (not counting those cut off by a kill). */
  answers: { path: string; status: number; at: number; body?: string }[];
  /** Requests lost with their instance (kill -9 while in flight). */
  cutOff: number;
  webhooks: { dropped: number; duplicated: number; delayed: number; forwarded: number };
}

export function startProxy(
  port: number,
  upstreams: Upstream[],
  rng: Rng,
  opts: { webhookFaults?: boolean } = {},
): Promise<{ server: Server; log: ProxyLog }> {
  const faults = opts.webhookFaults ?? true;
  const log: ProxyLog = { answers: [], cutOff: 0, webhooks: { dropped: 0, duplicated: 0, delayed: 0, forwarded: 0 } };
  let next = 0;
  const pick = (): Upstream[] => {
    const start = next++ % upstreams.length;
    return [...upstreams.slice(start), ...upstreams.slice(0, start)].filter((u) => u.alive);
  };

  /**
   * Forwards one buffered request and records the app's answer. A refused connection never reached
   * the app: the next instance gets it. One lost because its instance was killed is counted apart.
   */
  async function forward(
    req: IncomingMessage,
    path: string,
    body: Buffer,
    order: Upstream[],
  ): Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }> {
    for (const u of order) {
      const generation = u.generation;
      try {
        const answer = await new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>(
          (resolve, reject) => {
            const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
            const out = request(
              // Uncompressed answers, so the log can quote an error's body.
              {
                port: u.port,
                host: "127.0.0.1",
                method: req.method,
                path: req.url,
                headers: { ...req.headers, "accept-encoding": "identity", "x-forwarded-for": forwarded },
              },
              (res) => {
                const chunks: Buffer[] = [];
                res.on("data", (c: Buffer) => chunks.push(c));
                res.on("end", () =>
                  resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
                );
                res.on("error", reject);
              },
            );
            out.on("error", reject);
            out.end(body);
          },
        );
        log.answers.push({
          path,
          status: answer.status,
          at: Date.now(),
          ...(answer.status >= 500 && { body: answer.body.toString("utf8").slice(0, 300) }),
        });
        return answer;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ECONNREFUSED") continue;
        if (u.generation !== generation || !u.alive) {
          log.cutOff++;
          return { status: 502, headers: {}, body: Buffer.from("cut off by kill") };
        }
        // A live instance broke the connection: that is the app's answer, and it is a 5xx.
        const answer = { status: 502, headers: {}, body: Buffer.from(String(err)) };
        log.answers.push({ path, status: 502, at: Date.now(), body: String(err) });
        return answer;
      }
    }
    return { status: 503, headers: {}, body: Buffer.from("no live instance") };
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? "/").split("?")[0]!;

    if (req.method === "POST" && path === "/api/webhooks/pis") {
      const roll = faults ? rng.next() : 1;
      const fate = roll < 0.1 ? "drop" : roll < 0.25 ? "delay" : roll < 0.4 ? "twice" : "once";
      // The sandbox hears "delivered" at once in every case; what the app receives differs.
      res.writeHead(200).end();
      const sendTo = async (order: Upstream[]) => {
        await forward(req, path, body, order);
        log.webhooks.forwarded++;
      };
      if (fate === "drop") {
        log.webhooks.dropped++;
      } else if (fate === "twice") {
        log.webhooks.duplicated++;
        const order = pick();
        await Promise.all([sendTo(order), sendTo([...order.slice(1), ...order.slice(0, 1)])]);
      } else {
        if (fate === "delay") {
          log.webhooks.delayed++;
          await new Promise((r) => setTimeout(r, 1000 + rng.next() * 2000));
        }
        await sendTo(pick());
      }
      return;
    }

    const r = await forward(req, path, body, pick());
    const headers = { ...r.headers };
    delete headers["transfer-encoding"];
    delete headers["content-length"];
    res.writeHead(r.status, headers).end(r.body);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve({ server, log })));
}
