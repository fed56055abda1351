/**
 * What merchants and payers do, one checkout at a time, through the proxy like real traffic:
 * the merchant creates the checkout, the payer starts a payment (sometimes the same start on two
 * instances at once, sometimes Back and pay again, sometimes after a forgotten tab), the bank
 * approves, refuses or the payer cancels (through the sandbox's control API, which then sends
 * its webhook), the payer comes back to the landing page, and the merchant refunds some paid
 * checkouts twice with the same Idempotency-Key. Clients retry what a real client would retry: a
 * request cut off by a killed instance, or refused while the provider is down.
 */
import { SANDBOX_CONTROL } from "../bench-app";
import type { Rng } from "./rng";

export type Scenario = "approve" | "refuse" | "cancel" | "double-start" | "back-and-pay" | "forgotten-tab" | "refund";

export interface CheckoutRun {
  id: string;
  phase: number;
  scenario: Scenario;
  /** Our attempt ids and the provider's payment ids, as the payer's starts answered them. */
  starts: { attemptId: string; paymentId: string }[];
  /** Idempotency-Keys of the refund asked (each twice); a new key only after the provider refused. */
  refundKeys: string[];
  findings: string[];
}

export interface Endpoints {
  proxy: string;
  instances: () => string[];
  sandbox: string;
  notifyUrl: string;
  merchantKey: string;
  /** Told of every request the workload makes, each try of a retried one apart (the soak's latencies). */
  observe?: (call: ObservedCall) => void;
}

export interface ObservedCall {
  method: string;
  /** The path as sent, ids included. */
  path: string;
  /** 0: no answer (the connection broke, or the client's 60 s timeout). */
  status: number;
  /** The problem's `code` and `retry`, when the answer is one. */
  code?: string;
  retry?: boolean;
  startedAt: number;
  ms: number;
}

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** `send`, with each try told to `observe`. */
function observed(observe: Endpoints["observe"]): typeof send {
  if (!observe) return send;
  return async (base, method, path, body, headers) => {
    const startedAt = Date.now();
    const t = performance.now();
    const tell = (a: Answer) =>
      observe({
        method,
        path,
        status: a.status,
        ...(typeof a.json.code === "string" && { code: a.json.code }),
        ...(typeof a.json.retry === "boolean" && { retry: a.json.retry }),
        startedAt,
        ms: performance.now() - t,
      });
    try {
      const a = await send(base, method, path, body, headers);
      tell(a);
      return a;
    } catch (err) {
      tell({ status: 0, json: {} });
      throw err;
    }
  };
}

async function send(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body !== undefined && { "Content-Type": "application/json" }),
      ...(path.startsWith("/_sandbox/") ? SANDBOX_CONTROL : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: a proxy's 502 for a request cut off by a kill.
  }
  return { status: res.status, json };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Retries what a client would: a request lost with a killed instance, or refused while the provider is down. */
async function retrying(attempt: () => Promise<Answer>, tries = 30): Promise<Answer> {
  let last: Answer = { status: 0, json: {} };
  for (let i = 0; i < tries; i++) {
    last = await attempt().catch(() => ({ status: 0, json: {} }));
    if (last.status !== 0 && last.status < 500 && last.status !== 429) return last;
    await sleep(1000);
  }
  return last;
}

/** The provider's payment id, from the confirmLink it handed back (`…/login/{paymentId}`). */
const paymentIdOf = (r: Answer) => /\/login\/([^/?]+)/.exec(String(r.json.confirmLink))?.[1] ?? "";

export async function runCheckout(
  e: Endpoints,
  rng: Rng,
  phase: number,
  n: number,
  scenario: Scenario,
): Promise<CheckoutRun> {
  const call = observed(e.observe);
  const merchant = { Authorization: `Bearer ${e.merchantKey}` };
  const amount = `${1 + Math.floor(rng.next() * 200)}.${String(Math.floor(rng.next() * 100)).padStart(2, "0")}`;
  const created = await retrying(() =>
    call(
      e.proxy,
      "POST",
      "/api/checkouts",
      {
        amount,
        currency: "EUR",
        description: `Chaos order ${n}`,
        reference: `chaos-${phase}-${n}`,
        returnUrl: "https://shop.example/done",
        notifyUrl: e.notifyUrl,
      },
      merchant,
    ),
  );
  if (created.status !== 200 && created.status !== 201)
    throw new Error(`checkout ${n} not created: ${created.status} ${JSON.stringify(created.json)}`);
  const run: CheckoutRun = { id: String(created.json.id), phase, scenario, starts: [], refundKeys: [], findings: [] };
  const payPath = `/api/checkouts/${run.id}/payments`;
  const startBody = (key: string) => ({ method: "bank", bankId: "SEB_LT_SAND", termsAccepted: true, attemptKey: key });

  const start = async (first: string): Promise<{ attemptId: string; paymentId: string }> => {
    let key = first;
    let r = await retrying(() => call(e.proxy, "POST", payPath, startBody(key)));
    // Refused by the provider (its outage): the page's Try again makes a new attempt.
    for (let i = 0; i < 5 && r.status === 409 && r.json.code === "attempt_failed"; i++) {
      key = `${first}-${i}`;
      r = await retrying(() => call(e.proxy, "POST", payPath, startBody(key)));
    }
    if (r.status !== 200 && r.status !== 201)
      throw new Error(`start on ${run.id} answered ${r.status} ${JSON.stringify(r.json)}`);
    const s = { attemptId: String(r.json.attemptId), paymentId: paymentIdOf(r) };
    run.starts.push(s);
    return s;
  };
  const decide = (paymentId: string, bankStatus: "ACSC" | "RJCT" | "CANC") =>
    retrying(() => call(e.sandbox, "POST", `/_sandbox/payments/${paymentId}/status`, { bankStatus }));
  const land = () => retrying(() => call(e.proxy, "GET", `/api/checkouts/${run.id}/status`));
  const abandon = () => retrying(() => call(e.proxy, "POST", `${payPath}/abandon`));
  const key = () => `chaos-${phase}-${n}-${Math.floor(rng.next() * 1e9)}`;

  await sleep(rng.next() * 500); // the payer reads the page
  switch (scenario) {
    case "approve":
    case "refuse":
    case "cancel": {
      const s = await start(key());
      await sleep(rng.next() * 1500); // at the bank
      await decide(s.paymentId, scenario === "approve" ? "ACSC" : scenario === "refuse" ? "RJCT" : "CANC");
      if (rng.next() < 0.7) await land();
      break;
    }
    case "double-start": {
      // One click that reached two instances (a retried request behind the load balancer).
      const k = key();
      const [a, b] = await Promise.all(
        e
          .instances()
          .slice(0, 2)
          .map((base) => retrying(() => call(base, "POST", payPath, startBody(k)))),
      );
      if (a!.json.attemptId !== b!.json.attemptId)
        run.findings.push(
          `one start on two instances made two attempts: ${a!.json.attemptId} and ${b!.json.attemptId}`,
        );
      const started = [a!, b!].find((r) => r.status < 300);
      const unexpected = [a!, b!].filter((r) => r.status >= 300 && r.json.code !== "attempt_failed");
      if (unexpected.length > 0)
        run.findings.push(
          `double start answered ${unexpected.map((r) => `${r.status} ${JSON.stringify(r.json)}`).join(" / ")}`,
        );
      // Both refused by the provider (its outage): the page's Try again makes a new attempt.
      const s = started
        ? { attemptId: String(started.json.attemptId), paymentId: paymentIdOf(started) }
        : await start(`${k}-again`);
      if (started) run.starts.push(s);
      await decide(s.paymentId, "ACSC");
      await land();
      break;
    }
    case "back-and-pay":
    case "forgotten-tab": {
      const first = await start(key());
      await sleep(rng.next() * 1000);
      await abandon(); // Back: the payer chooses again
      const second = await start(key());
      await decide(second.paymentId, "ACSC");
      // The first tab, left open at the bank, is approved later: a duplicate payment.
      if (scenario === "forgotten-tab") await decide(first.paymentId, "ACSC");
      await land();
      break;
    }
    case "refund": {
      const s = await start(key());
      await decide(s.paymentId, "ACSC");
      // The merchant waits for the payment (webhook or refresh), then refunds, and its request
      // is sent twice (a retry after a timeout) to two instances.
      for (let i = 0; i < 90; i++) {
        const c = await retrying(() => call(e.proxy, "GET", `/api/checkouts/${run.id}`, undefined, merchant));
        if (c.json.status === "paid") break;
        await sleep(1000);
      }
      // Each request is sent twice (a retry after a timeout) and lands on two instances. A refund
      // the provider refused (its outage) is asked again under a new key, as the merchant would.
      for (let k = 1; k <= 5; k++) {
        const refundKey = `refund-${run.id}-${k}`;
        run.refundKeys.push(refundKey);
        const refund = () =>
          retrying(() =>
            call(
              e.proxy,
              "POST",
              `/api/checkouts/${run.id}/refunds`,
              { amount: "1.00", reason: "chaos" },
              { ...merchant, "Idempotency-Key": refundKey },
            ),
          );
        const answers = await Promise.all([refund(), refund()]);
        if (answers.some((a) => a.status >= 400))
          run.findings.push(
            `refund answered ${answers.map((a) => `${a.status} ${JSON.stringify(a.json)}`).join(" / ")}`,
          );
        if (answers[0]!.json.id !== answers[1]!.json.id)
          run.findings.push(`one Idempotency-Key, two refunds: ${answers[0]!.json.id} and ${answers[1]!.json.id}`);
        // An unknown outcome (the provider's answer was lost) is settled from the provider's
        // refund list, and told to the merchant; this merchant looks at the list until then.
        let status = String(answers[0]!.json.status);
        for (let i = 0; i < 90 && status === "unknown"; i++) {
          await sleep(1000);
          const list = await retrying(() =>
            call(e.proxy, "GET", `/api/checkouts/${run.id}/refunds`, undefined, merchant),
          );
          status = String(
            (list.json.refunds as { id: string; status: string }[] | undefined)?.find(
              (r) => r.id === answers[0]!.json.id,
            )?.status ?? status,
          );
        }
        if (status !== "failed") break;
      }
      break;
    }
  }
  return run;
}

/** The mix of scenarios: mostly plain payments, and every troublesome kind often enough to matter. */
export function scenarioFor(rng: Rng): Scenario {
  const r = rng.next();
  if (r < 0.35) return "approve";
  if (r < 0.47) return "refuse";
  if (r < 0.57) return "cancel";
  if (r < 0.67) return "double-start";
  if (r < 0.77) return "back-and-pay";
  if (r < 0.85) return "forgotten-tab";
  return "refund";
}

/** Runs `count` checkouts, `parallel` at a time. */
export async function runMany(
  count: number,
  parallel: number,
  one: (n: number) => Promise<CheckoutRun>,
): Promise<{ runs: CheckoutRun[]; errors: string[] }> {
  const runs: CheckoutRun[] = [];
  const errors: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const n = next++;
        try {
          runs.push(await one(n));
        } catch (err) {
          errors.push(`checkout ${n}: ${(err as Error).message}`);
        }
      }
    }),
  );
  return { runs, errors };
}
