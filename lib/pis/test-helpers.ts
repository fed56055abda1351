import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, inject } from "vitest";
import { createPisClient, PisError, type ApiVersion, type PisConfig, type StatusGroup } from "./index";

/** Shared by the lib/pis tests: clients for the real sandbox, a recorded provider, a scripted payer. */

export const SANDBOX = { clientId: "sandbox-client-id", clientSecret: "sandbox-client-secret" };
export const SANDBOX_NOCARD = { clientId: "sandbox-nocard-id", clientSecret: "sandbox-nocard-secret" };

/** Where the provider sends the payer back; never called (the tests stop at the redirect). */
export const RETURN_URL = "http://shop.test/checkout/co_1/return";

export const sandboxUrl = () => inject("sandboxUrl");

export function sandboxClient(version: ApiVersion = "v0.3", credentials = SANDBOX) {
  return createPisClient({
    baseUrl: `${sandboxUrl()}/platform`,
    ...credentials,
    version,
    timeoutMs: 5000,
    retry: { attempts: 2, baseMs: 5, maxMs: 20 },
  });
}

export const PAYMENT_INPUT = {
  amount: "12.50",
  currencyCode: "EUR",
  description: "Order 42",
  endToEndId: "order-42",
  creditorName: "Demo Shop UAB",
  creditorIban: "LT601010012345678901",
  redirectUrl: RETURN_URL,
};

/** The rejection of `p`, which must be a PisError. */
export async function rejection(p: Promise<unknown>): Promise<PisError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PisError);
  return err as PisError;
}

/** Forces a payment's status through the sandbox's control API (not part of the provider's API). */
export async function forceStatus(
  paymentId: string,
  status: { bankStatus?: string; cardStatus?: string; hybridStatus?: string; statusGroup?: StatusGroup },
): Promise<void> {
  const res = await fetch(`${sandboxUrl()}/_sandbox/payments/${paymentId}/status`, {
    method: "POST",
    // The control API's documented test secret (lib/sandbox/README.md "Control API").
    headers: { "Content-Type": "application/json", "X-Sandbox-Secret": "sandbox-control-secret" },
    body: JSON.stringify(status),
  });
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new Error(`sandbox control API answered ${res.status}: ${text}`);
}

// ---------------------------------------------------------------------------------------------
// A scripted payer for the hosted pages: reads each HTML page, fills and submits the form that moves
// forward (bank choice, test-bank login, approve), follows redirects, and stops at our return URL.
// It reads forms generically, so it does not depend on the sandbox's markup beyond plain HTML forms.

const decodeHtml = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCharCode(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

const attr = (attrs: string, name: string) => {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(attrs);
  return m ? decodeHtml(m[1] ?? m[2] ?? m[3] ?? "") : undefined;
};

interface HtmlForm {
  method: string;
  action: string;
  inputs: { name?: string; type: string; value: string }[];
  selects: { name: string; value: string }[];
  buttons: { name?: string; value: string; label: string }[];
}

function readForms(html: string): HtmlForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].map(([, attrs = "", inner = ""]) => ({
    method: (attr(attrs, "method") ?? "get").toLowerCase(),
    action: attr(attrs, "action") ?? "",
    inputs: [...inner.matchAll(/<input\b([^>]*)>/gi)].map(([, a = ""]) => ({
      name: attr(a, "name"),
      type: (attr(a, "type") ?? "text").toLowerCase(),
      value: attr(a, "value") ?? "",
    })),
    selects: [...inner.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)].flatMap(([, a = "", options = ""]) => {
      const name = attr(a, "name");
      const chosen = /<option\b([^>]*\bselected\b[^>]*)>/i.exec(options) ?? /<option\b([^>]*)>/i.exec(options);
      return name && chosen ? [{ name, value: attr(chosen[1] ?? "", "value") ?? "" }] : [];
    }),
    buttons: [...inner.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)].map(([, a = "", label = ""]) => ({
      name: attr(a, "name"),
      value: attr(a, "value") ?? "",
      label: decodeHtml(label.replace(/<[^>]*>/g, "")).trim(),
    })),
  }));
}

const FORWARD = /approve|allow|authori[sz]e|confirm|agree|grant|link|continue|log ?in|pay/i;
const BACKWARD = /cancel|decline|reject|deny|another|back/i;

function nextSubmission(
  html: string,
  opts: { bankId?: string; choose?: string },
): { action: string; fields: [string, string][] } | undefined {
  const forms = readForms(html).filter((f) => f.method === "post");
  const base = (f: HtmlForm): [string, string][] => [
    ...f.inputs.filter((i) => i.name && i.type === "hidden").map((i): [string, string] => [i.name ?? "", i.value]),
    ...f.selects.map((s): [string, string] => [s.name, s.value]),
  ];
  const login = forms.find((f) => f.inputs.some((i) => i.type === "password"));
  if (login) {
    const fields = base(login);
    for (const i of login.inputs) {
      if (!i.name) continue;
      if (i.type === "password") fields.push([i.name, "1234"]);
      else if (i.type === "text" || i.type === "email") fields.push([i.name, "test"]);
    }
    return { action: login.action, fields };
  }
  const choice = forms.find((f) => f.inputs.some((i) => i.type === "radio"));
  if (choice) {
    const radios = choice.inputs.filter((i) => i.type === "radio");
    const wanted = opts.choose ?? opts.bankId;
    const picked = radios.find((r) => r.value === wanted) ?? radios[0];
    return { action: choice.action, fields: [...base(choice), [picked?.name ?? "", picked?.value ?? ""]] };
  }
  const forward = forms.find((f) => f.buttons.some((b) => FORWARD.test(b.label) && !BACKWARD.test(b.label)));
  if (forward) {
    const button = forward.buttons.find((b) => FORWARD.test(b.label));
    const fields = base(forward);
    if (button?.name) fields.push([button.name, button.value]);
    return { action: forward.action, fields };
  }
  return undefined;
}

/**
 * Walks a hosted page (confirmLink or authorizationLink) as a consenting payer and returns the URL
 * the provider finally sends the browser to, which must start with `returnUrl`.
 */
export async function walkHostedPage(
  link: string,
  returnUrl: string,
  opts: { bankId?: string; choose?: string } = {},
): Promise<URL> {
  let url = link;
  let body: URLSearchParams | undefined;
  // A browser's cookies, kept per walk: hosted links may be claimed by the first browser to open them.
  const cookies = new Map<string, string>();
  for (let step = 0; step < 25; step++) {
    const headers: Record<string, string> = body ? { "Content-Type": "application/x-www-form-urlencoded" } : {};
    if (cookies.size > 0) headers.Cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(url, { method: body ? "POST" : "GET", body, headers, redirect: "manual" });
    for (const setCookie of res.headers.getSetCookie()) {
      const [pair = ""] = setCookie.split(";");
      const eq = pair.indexOf("=");
      if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const location = new URL(res.headers.get("location") ?? "", url).toString();
      if (location.startsWith(returnUrl)) return new URL(location);
      url = location;
      body = undefined;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`hosted page ${url} answered ${res.status}`);
    const next = nextSubmission(html, opts);
    if (!next) throw new Error(`hosted page ${url} offers no way forward`);
    url = new URL(next.action, url).toString();
    body = new URLSearchParams(next.fields);
  }
  throw new Error("hosted page did not send the payer back");
}

// ---------------------------------------------------------------------------------------------
// A recorded provider: a local node:http server answering fixed bodies and keeping every request.

export interface RecordedRequest {
  method: string;
  /** Path after /platform, version included: "/v0.3/auth/banks". */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Reply =
  | { status?: number; json: unknown }
  | { status?: number; text: string }
  | { status: number }
  | { hang: true }
  | { reset: true }
  /** The head and half the body of `json`, then the connection is held open or dropped. */
  | { partial: "hang" | "reset"; json: unknown };

export interface RecordedProvider {
  /** The base URL to give createPisClient. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Answers in turn; the last one repeats. Clears the recorded requests. */
  reply(...replies: Reply[]): void;
  client(version?: ApiVersion, config?: Partial<PisConfig>): ReturnType<typeof createPisClient>;
  /** The only request so far. */
  only(): RecordedRequest;
  close(): Promise<void>;
}

export async function startRecordedProvider(): Promise<RecordedProvider> {
  const requests: RecordedRequest[] = [];
  let replies: Reply[] = [{ status: 500 }];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://recorded.invalid");
      requests.push({
        method: req.method ?? "",
        path: url.pathname.replace(/^\/platform/, ""),
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)] ?? { status: 500 };
      if ("hang" in reply) return;
      if ("reset" in reply) return req.socket.destroy();
      if ("partial" in reply) {
        const bytes = Buffer.from(JSON.stringify(reply.json));
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": bytes.length });
        res.write(bytes.subarray(0, bytes.length >> 1));
        if (reply.partial === "reset") setTimeout(() => req.socket.destroy(), 20);
        return;
      }
      const status = "status" in reply && reply.status !== undefined ? reply.status : 200;
      if ("json" in reply) {
        const text = JSON.stringify(reply.json);
        return res
          .writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) })
          .end(text);
      }
      if ("text" in reply) return res.writeHead(status, { "Content-Type": "application/json" }).end(reply.text);
      res.writeHead(status, { "Content-Length": 0 }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/platform`;
  return {
    baseUrl,
    requests,
    reply(...next) {
      replies = next;
      requests.length = 0;
    },
    client(version = "v0.3", config = {}) {
      return createPisClient({
        baseUrl,
        clientId: "recorded-id",
        clientSecret: "recorded-secret",
        version,
        timeoutMs: 1000,
        retry: { attempts: 3, baseMs: 1, maxMs: 4 },
        ...config,
      });
    },
    only() {
      expect(requests).toHaveLength(1);
      return requests[0] as RecordedRequest;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Links a sandbox test-bank account (auth start, hosted page, code exchange) and returns its tokens. */
export async function linkAccount(
  pis: ReturnType<typeof createPisClient>,
  scopes: string[],
  bankId = "SWEDBANK_LT_SAND",
) {
  const requestId = `req-${Math.random().toString(36).slice(2)}`;
  const started = await pis.auth.start({ scopes, requestId, redirectUrl: RETURN_URL, bankId });
  const back = await walkHostedPage(started.authorizationLink, RETURN_URL, { bankId });
  expect(back.searchParams.get("status")).toBe("success");
  expect(back.searchParams.get("requestId")).toBe(requestId);
  const code = back.searchParams.get("code");
  expect(code).toBeTruthy();
  return pis.auth.exchangeCode(code ?? "");
}
