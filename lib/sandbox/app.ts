import http from "node:http";
import type { AddressInfo } from "node:net";
import { handleApi, handleFrameApi } from "./api";
import { findBank, logoPng } from "./banks";
import { consolePage, handleConsoleAction } from "./console";
import type { SandboxContext } from "./context";
import { handleControl } from "./control";
import { createFaults } from "./faults";
import { ApiError, PageError, apiErrors, header, send, sendApiError, sendHtml, sendJson } from "./http";
import { runDueTransitions } from "./lifecycle";
import { handleLinkingPages } from "./linking";
import { errorPage } from "./pages";
import { NO_PERSISTENCE, createPersister, loadState } from "./persist";
import { handlePaymentPages, handleProcessingPage } from "./hosted";
import { projectById, sameSecret } from "./projects";
import { createStore, type Store } from "./store";
import { isApiVersion } from "./versions";
import { createWebhookDispatcher } from "./webhooks";

export interface SandboxOptions {
  /** Origin used in confirmLink and bank imageUri; default `http://localhost:<port>` once listening. */
  publicUrl?: string;
  /** Clock in epoch milliseconds (payment times, webhook timestamps); time travel adds to it. */
  now?: () => number;
  /** Delays between webhook attempts; the default backs off over about 47.7 hours. */
  webhookRetryDelaysMs?: number[];
  /** How long an approved bank payment stays pending before it completes; default 0 (at once). */
  pendingMs?: number;
  /** How long the test user `pending` keeps approvals pending when pendingMs is 0; default 30 s. */
  pendingUserMs?: number;
  /** How long a refund stays `started` before it completes; default 3 s. */
  refundDelayMs?: number;
  /** Keep the state in `<dataDir>/sandbox-state.json` across restarts; default: memory only. */
  dataDir?: string;
  /** How often due transitions (expiry, pending completion, refunds) are checked; default 250 ms. */
  tickMs?: number;
  /** What control calls must send in X-Sandbox-Secret; default the documented DEFAULT_CONTROL_SECRET. */
  controlSecret?: string;
}

/** The control API's documented test secret (README "Control API"), like the test project's credentials. */
export const DEFAULT_CONTROL_SECRET = "sandbox-control-secret";

export interface Sandbox {
  server: http.Server;
  /** Starts listening (without a host, on every interface; the server script passes 127.0.0.1). Resolves to the base URL. */
  listen(port: number, host?: string): Promise<string>;
  /** Stops listening, drops open connections, stops webhook retries and saves the state. */
  close(): Promise<void>;
  store: Store;
}

const API_PATH = /^\/platform\/(v0\.\d+)(\/.*)?$/;
const FRAME_PATH = /^\/platform\/frame(\/.*)?$/;
const LOGO_PATH = /^\/logos\/([^/]+)\.png$/;
/** A `timeout` fault holds the socket until the client gives up, but not forever. */
const MAX_HOLD_MS = 10 * 60 * 1000;

export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const store = createStore();
  const baseNow = opts.now ?? Date.now;
  const now = () => baseNow() + store.clock.offsetMs;
  if (opts.dataDir) loadState(store, opts.dataDir);
  const persister = opts.dataDir ? createPersister(store, opts.dataDir) : NO_PERSISTENCE;
  const server = http.createServer();
  const listeningPort = () => (server.address() as AddressInfo | null)?.port ?? 0;
  const publicUrl = () => opts.publicUrl?.replace(/\/+$/, "") ?? `http://localhost:${listeningPort()}`;
  const webhooks = createWebhookDispatcher({
    store,
    now,
    wallClock: baseNow,
    secretFor: (projectId) => projectById(store.projects, projectId)?.webhookSecret,
    onChange: () => persister.changed(),
    ...(opts.webhookRetryDelaysMs && { retryDelaysMs: opts.webhookRetryDelaysMs }),
  });
  const servesHost = (host: string | undefined) => {
    if (!host) return false;
    const port = listeningPort();
    const served = [new URL(publicUrl()).host, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
    try {
      return served.includes(new URL(`http://${host}`).host);
    } catch {
      return false;
    }
  };
  const ctx: SandboxContext = {
    store,
    now,
    publicUrl,
    servesHost,
    webhooks,
    settings: {
      pendingMs: opts.pendingMs ?? 0,
      pendingUserMs: opts.pendingUserMs ?? 30_000,
      refundDelayMs: opts.refundDelayMs ?? 3_000,
      controlSecret: opts.controlSecret ?? DEFAULT_CONTROL_SECRET,
    },
    faults: createFaults(),
    changed: () => persister.changed(),
  };
  webhooks.reschedule();
  const ticker = setInterval(() => runDueTransitions(ctx), opts.tickMs ?? 250);
  ticker.unref();

  server.on("request", (req, res) => {
    void handle(ctx, req, res);
  });

  return {
    server,
    store,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        const onListening = () => {
          server.off("error", reject);
          const wildcard = host === undefined || host === "::" || host === "0.0.0.0";
          const shownHost = wildcard ? "localhost" : host.includes(":") ? `[${host}]` : host;
          resolve(`http://${shownHost}:${listeningPort()}`);
        };
        if (host === undefined) server.listen(port, onListening);
        else server.listen(port, host, onListening);
      });
    },
    close() {
      clearInterval(ticker);
      webhooks.close();
      persister.flush();
      return new Promise((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/** An API call: faults first (a provider outage comes before anything else), then the call. */
async function handleApiCall(
  ctx: SandboxContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  method: string,
  path: string,
  url: URL,
) {
  const api = API_PATH.exec(path);
  const frame = FRAME_PATH.exec(path);
  const version = api?.[1];
  const apiPath = api?.[2] ?? "/";
  const fault = ctx.faults.take(method, path, apiPath);
  if (fault?.mode === "error") return sendApiError(res, apiErrors.system());

  let status = 200;
  let body: unknown;
  try {
    if (frame) body = handleFrameApi(ctx, method, frame[1] ?? "/", url);
    else if (!version || !isApiVersion(version)) throw apiErrors.notFound("Route");
    else body = await handleApi(ctx, req, method, version, apiPath, url);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    status = error.status;
    body = error.toBody();
  }
  if (fault?.mode === "timeout") {
    setTimeout(() => res.destroy(), MAX_HOLD_MS).unref();
    return;
  }
  if (fault?.mode === "slow") await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
  sendJson(res, status, body, { close: true });
}

/** Forms and control calls change state: refuse them from other sites' pages (no cookies to lean on). */
function crossSite(req: http.IncomingMessage): boolean {
  const origin = header(req, "origin");
  if (!origin || origin === "null") return origin === "null";
  try {
    return new URL(origin).host !== header(req, "host");
  } catch {
    return true;
  }
}

async function handle(ctx: SandboxContext, req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(`http://sandbox.invalid${req.url ?? "/"}`);
  const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
  const path = url.pathname;
  const isApi = path.startsWith("/platform/");
  const isControl = path.startsWith("/_sandbox/");
  const segments = () => path.split("/").filter(Boolean).map(decodeURIComponent);
  try {
    runDueTransitions(ctx);
    // The API is for servers, which may know the sandbox under any name (a container's service name).
    if (isApi) return await handleApiCall(ctx, req, res, method, path, url);
    if (!ctx.servesHost(header(req, "host")) && path !== "/health") {
      if (isControl) throw new ApiError(421, 10019, "InvalidRequest", "The sandbox does not serve this host name.");
      throw new PageError(421, "forbidden");
    }
    if (isControl) {
      if (!sameSecret(header(req, "x-sandbox-secret") ?? "", ctx.settings.controlSecret)) {
        throw new ApiError(
          401,
          10001,
          "Unauthorized",
          "Control calls need the sandbox's control secret in X-Sandbox-Secret.",
        );
      }
      if (method === "POST" && crossSite(req))
        throw new ApiError(400, 10019, "InvalidRequest", "Cross-site requests are not allowed.");
      return sendJson(res, 200, await handleControl(ctx, req, method, segments().slice(1), url));
    }
    const logo = LOGO_PATH.exec(path);
    if (logo && method === "GET") {
      const bank = findBank(decodeURIComponent(logo[1] ?? ""));
      if (!bank) throw new PageError(404, "notFound");
      return send(res, 200, "image/png", logoPng(bank), { headers: { "Cache-Control": "public, max-age=86400" } });
    }
    const [first, ...rest] = segments();
    if (first === "login") return await handlePaymentPages(ctx, req, res, method, rest, url);
    if (first === "payments") return handleProcessingPage(ctx, req, res, method, rest, url);
    if (first === "auth") return await handleLinkingPages(ctx, req, res, method, rest, url);
    if (first === "console" && method === "POST") {
      if (crossSite(req)) throw new PageError(403, "forbidden");
      return await handleConsoleAction(ctx, req, res, rest);
    }
    if (path === "/" && method === "GET") return sendHtml(res, 200, consolePage(ctx));
    if (path === "/health" && method === "GET") return sendJson(res, 200, { status: "ok" });
    throw new PageError(404, "notFound");
  } catch (error) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const lang = url.searchParams.get("lang");
    if (error instanceof ApiError) return sendApiError(res, error);
    if (error instanceof PageError) return sendHtml(res, error.status, errorPage(error.titleKey, lang));
    if (error instanceof URIError) {
      return isApi || isControl
        ? sendApiError(res, apiErrors.notFound("Route"))
        : sendHtml(res, 404, errorPage("notFound", lang));
    }
    console.error("sandbox: unexpected error", req.method, path, error);
    return isApi || isControl
      ? sendApiError(res, apiErrors.system())
      : sendHtml(res, 500, errorPage("somethingWrong", lang));
  } finally {
    // Handlers note their own changes; this is the safety net for any state a POST touched.
    if (method === "POST") ctx.changed();
  }
}
