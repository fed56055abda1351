import type { z } from "zod";
import { PisError } from "./errors";
import { errorEnvelope } from "./schemas";

export type ApiVersion = "v0.1" | "v0.2" | "v0.3";

export interface PisConfig {
  /** Provider base without the version, e.g. "https://api.kevin.eu/platform". */
  baseUrl: string;
  version?: ApiVersion;
  clientId: string;
  clientSecret: string;
  timeoutMs?: number;
  /** Sent as Plugin-* headers so the provider can tell integrations apart. */
  plugin?: { version: string; platform: string; platformVersion: string };
  fetch?: typeof fetch;
}

export interface RequestSpec<T extends z.ZodType> {
  operation: string;
  method: "GET" | "POST";
  path: string;
  query?: Record<string, string | boolean | undefined>;
  headers?: Record<string, string | undefined>;
  body?: unknown;
  schema: T;
}

export type Transport = <T extends z.ZodType>(spec: RequestSpec<T>) => Promise<z.infer<T>>;

export function createTransport(config: PisConfig): Transport {
  const version = config.version ?? "v0.3";
  const base = `${config.baseUrl.replace(/\/+$/, "")}/${version}`;
  const timeoutMs = config.timeoutMs ?? 15_000;
  const doFetch = config.fetch ?? fetch;

  return async function request<T extends z.ZodType>(spec: RequestSpec<T>): Promise<z.infer<T>> {
    const url = new URL(base + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = {
      Accept: "application/json",
      "Client-Id": config.clientId,
      "Client-Secret": config.clientSecret,
    };
    if (config.plugin) {
      headers["Plugin-Version"] = config.plugin.version;
      headers["Plugin-Platform"] = config.plugin.platform;
      headers["Plugin-Platform-Version"] = config.plugin.platformVersion;
    }
    for (const [k, v] of Object.entries(spec.headers ?? {})) if (v !== undefined) headers[k] = v;
    if (spec.body !== undefined) headers["Content-Type"] = "application/json";

    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "manual",
      });
      text = await res.text();
    } catch (cause) {
      const timedOut = cause instanceof Error && (cause.name === "TimeoutError" || cause.name === "AbortError");
      throw new PisError({ kind: timedOut ? "timeout" : "network", operation: spec.operation, cause });
    }

    if (res.status !== 200) throw httpError(spec.operation, res.status, text);

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new PisError({ kind: "parse", operation: spec.operation, httpStatus: 200, description: "response is not JSON", cause });
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      throw new PisError({
        kind: "parse",
        operation: spec.operation,
        httpStatus: 200,
        description: parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "),
        cause: parsed.error,
      });
    }
    return parsed.data;
  };
}

function httpError(operation: string, status: number, text: string): PisError {
  let envelope: z.infer<typeof errorEnvelope> | undefined;
  try {
    const parsed = errorEnvelope.safeParse(JSON.parse(text));
    if (parsed.success) envelope = parsed.data;
  } catch {
    // Not every error carries the envelope (a proxy's 502 page, for one); the status still tells.
  }
  return new PisError({
    kind: "http",
    operation,
    httpStatus: status,
    code: envelope?.error.code,
    name: envelope?.error.name,
    description: envelope?.error.description,
    data: envelope?.data,
  });
}
