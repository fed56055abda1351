import http from "node:http";
import https from "node:https";

interface SendInit {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** For the whole exchange: connecting, sending and reading the answer. */
  timeoutMs: number;
}

/**
 * The largest answer read: the biggest the provider sends is a country's bank list (tens of KB).
 * A broken or hostile answer beyond it is cut off instead of being held in memory.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** Thrown by `httpSend` when the deadline passes. */
export class SendTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
  }
}

/** The id a provider may give its answer in a header (asked for when you write to its support). */
const REQUEST_ID_HEADERS = ["x-request-id", "request-id"];

/**
 * One HTTP exchange over node:http(s): the status, the body as UTF-8 text and the answer's request
 * id header, if it has one; rejects on a timeout or a network error. Not `fetch`: a server's outgoing fetch goes through Next's patched fetch and
 * undici's web streams, which cost a payment start about 2.4 ms more of the app's CPU (ADR 19).
 * Redirects are not followed (the provider answers success with 200, anything else is a failure),
 * and nothing is decompressed: no Accept-Encoding is sent, and the provider never compresses
 * (provider-api.md 0.5).
 */
export const httpSend = (url: URL, init: SendInit) =>
  new Promise<{ status: number; text: string; requestId?: string }>((resolve, reject) => {
    const body = init.body === undefined ? undefined : Buffer.from(init.body, "utf8");
    const headers = body ? { ...init.headers, "Content-Length": String(body.length) } : init.headers;
    const client = url.protocol === "https:" ? https : http;
    // Why we stopped the exchange ourselves (the deadline, the size), whatever error the
    // connection reports next: a cut-off answer is never taken, even if its last byte arrived.
    let cutOff: Error | undefined;
    const stop = (reason: Error) => {
      cutOff ??= reason;
      req.destroy(reason);
    };
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(cutOff ?? err);
    };
    const req = client.request(url, { method: init.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        else stop(new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
      });
      res.on("error", fail);
      res.on("close", () => {
        if (cutOff || !res.complete) return fail(new Error("the connection closed before the answer was complete"));
        clearTimeout(timer);
        const requestId = REQUEST_ID_HEADERS.map((h) => res.headers[h]).find(
          (v): v is string => typeof v === "string" && /^[\x21-\x7e]{1,128}$/.test(v),
        );
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), requestId });
      });
    });
    const timer = setTimeout(() => stop(new SendTimeout(init.timeoutMs)), init.timeoutMs);
    req.on("error", fail);
    req.end(body);
  });
