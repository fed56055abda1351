import http from "node:http";
import type { AddressInfo } from "node:net";
import { findBank, logoSvg } from "./banks";
import { consolePage } from "./console";
import type { SandboxContext } from "./context";
import { ApiError, PageError, apiErrors, send, sendApiError, sendHtml, sendJson } from "./http";
import { errorPage, handleHosted } from "./hosted";
import { handleApi } from "./payments";
import { createStore, type Store } from "./store";
import { createWebhookDispatcher } from "./webhooks";

export interface SandboxOptions {
  /** Origin used in confirmLink and bank imageUri; default `http://localhost:<port>` once listening. */
  publicUrl?: string;
  /** Clock in epoch milliseconds (payment times, webhook timestamps). */
  now?: () => number;
  /** Delays between webhook attempts; the default backs off over about 40 hours. */
  webhookRetryDelaysMs?: number[];
}

export interface Sandbox {
  server: http.Server;
  /** Starts listening; without a host on every interface (so both 127.0.0.1 and ::1 reach it). Resolves to the base URL. */
  listen(port: number, host?: string): Promise<string>;
  /** Stops listening, drops open connections and stops webhook retries. */
  close(): Promise<void>;
  store: Store;
}

const API_PATH = /^\/platform\/v0\.[123](\/.*)?$/;
const LOGO_PATH = /^\/logos\/([^/]+)\.svg$/;

export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const store = createStore();
  const now = opts.now ?? Date.now;
  const server = http.createServer();
  const listeningPort = () => (server.address() as AddressInfo | null)?.port ?? 0;
  const publicUrl = () => opts.publicUrl?.replace(/\/+$/, "") ?? `http://localhost:${listeningPort()}`;
  const webhooks = createWebhookDispatcher({ store, now, ...(opts.webhookRetryDelaysMs && { retryDelaysMs: opts.webhookRetryDelaysMs }) });
  const ctx: SandboxContext = { store, now, publicUrl, webhooks };

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
      webhooks.close();
      return new Promise((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

async function handle(ctx: SandboxContext, req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(`http://sandbox.invalid${req.url ?? "/"}`);
  const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
  const path = url.pathname;
  const isApi = path.startsWith("/platform/");
  try {
    const api = API_PATH.exec(path);
    if (api) return await handleApi(ctx, req, res, method, api[1] ?? "/", url);
    if (isApi) throw apiErrors.notFound("Route");

    const logo = LOGO_PATH.exec(path);
    if (logo && method === "GET") {
      const bank = findBank(decodeURIComponent(logo[1] ?? ""));
      if (!bank) throw new PageError(404, "Logo not found");
      return send(res, 200, "image/svg+xml", logoSvg(bank), { headers: { "Cache-Control": "public, max-age=86400" } });
    }
    const segments = path.split("/").filter(Boolean);
    if (segments[0] === "login") return await handleHosted(ctx, req, res, method, segments.slice(1).map(decodeURIComponent), url);
    if (path === "/" && method === "GET") return sendHtml(res, 200, consolePage(ctx));
    if (path === "/health" && method === "GET") return sendJson(res, 200, { status: "ok" });
    throw new PageError(404, "Page not found");
  } catch (error) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof ApiError) return sendApiError(res, error);
    if (error instanceof PageError) return sendHtml(res, error.status, errorPage(error.title));
    if (error instanceof URIError) {
      return isApi ? sendApiError(res, apiErrors.notFound("Route")) : sendHtml(res, 404, errorPage("Page not found"));
    }
    console.error("sandbox: unexpected error", req.method, path, error);
    return isApi ? sendApiError(res, apiErrors.system()) : sendHtml(res, 500, errorPage("Something went wrong"));
  }
}
