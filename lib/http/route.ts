import { randomUUID } from "node:crypto";
import { SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { z } from "zod";
import { apiCallerOf, type ApiCaller, type ApiScope } from "../api-keys/keys";
import { appContext } from "../checkout/app-context";
import type { CheckoutContext } from "../checkout/context";
import { CheckoutError } from "../checkout/errors";
import { countingRoundTrips, withRoundTripCount } from "../db/round-trips";
import { noticeDatabaseAway } from "../db/unavailable";
import { env } from "../env";
import { logger } from "../log/logger";
import { recordRequest } from "../metrics/record";
import { redactError } from "../log/redact";
import { recordAnswer, recordingAnswers } from "./contract-record";
import { BodyNotText, BodyTooLarge, MAX_BODY_BYTES, readBodyLimited } from "./body";
import { crossSiteRequest, declaredJson } from "./cross-site";
import { json, problem } from "./problem";
import { apiSecurityHeaders } from "./security-headers";
import { InvalidInput, parseInput } from "./parse-input";
import { RateLimitedError } from "./rate-limit";
import { allows, type StaffAction } from "../staff/roles";
import { sessionOf, sessionTokenOf } from "../staff/sessions";

/**
 * Bench rig: with BENCH_SERVER_TIMING set, every answer carries the time the request spent in its
 * handler in `Server-Timing` (what a client waited beyond it was spent before: accepting the
 * connection, Next). Two clock reads; `npm run load` measures with it on.
 */
const timingHandlers = !!process.env.BENCH_SERVER_TIMING;

const tracer = trace.getTracer("bank-checkout");

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.infer<S> : undefined;

interface RouteSpec<P, Q, B> {
  params?: P;
  query?: Q;
  body?: B;
  /**
   * When set, the request must carry `Authorization: Bearer <an API key>` whose scopes include this
   * one (lib/api-keys): 401 without a key the app knows, 403 insufficient_scope with one that may not.
   */
  apiKey?: ApiScope;
  /**
   * When set, the request must carry the session cookie of staff whose role may do this (the back
   * office's own JSON; lib/staff/roles.ts).
   */
  staff?: StaffAction;
  /** Hand the body to the handler as the exact text received (a signed webhook), not parsed. */
  rawBody?: boolean;
  /**
   * The payer's browser calls it from our pages and it changes something: refused 403 when another
   * site's page makes the browser send it (CSRF; its cookie may ride along), as proxy.ts refuses
   * the pages' own forms. Servers, which send no Origin, still reach it.
   */
  ownPagesOnly?: boolean;
}

interface RouteInput<P, Q, B> {
  req: Request;
  /** The application's context (database, provider client, settings): the one place routes get it. */
  ctx: CheckoutContext;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** The body as received, when the spec asks for `rawBody`. */
  rawBody: string;
  /** The API key that made the request, when the spec asks for one. */
  caller?: ApiCaller;
}

/**
 * The one wrapper every route handler uses: parses params, query and body with zod, answers a
 * known refusal as problem+json naming the field, and any other error as a bare 500 with a
 * request id (logged with the stack, never sent).
 */
export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(spec: RouteSpec<P, Q, B>, handler: (input: RouteInput<P, Q, B>) => Promise<Response | object>) {
  return async (
    req: Request,
    ctx: { params: Promise<Record<string, string | string[] | undefined>> },
  ): Promise<Response> => {
    const started = performance.now();
    // Next hands the params over already resolved (none at all, for a route without any): taken as
    // they arrive rather than awaited, so the route's template is known by the time the answer is.
    let params: RouteParams | undefined;
    Promise.resolve(ctx.params).then(
      (p) => (params = p ?? {}),
      () => {},
    );
    const requestId = requestIdOf(req);
    // Under Next's own span for the request (a child of the caller's traceparent, if it sent one):
    // the provider calls, statements and log lines of this request hang from it.
    return tracer.startActiveSpan(`${req.method} ${routeOf(req)}`, async (span) => {
      try {
        return await answer(req, ctx, started, () => params, requestId, span);
      } finally {
        span.end();
      }
    });
  };

  async function answer(
    req: Request,
    ctx: Parameters<typeof handle>[1],
    started: number,
    paramsOf: () => RouteParams | undefined,
    requestId: string,
    span: Span,
  ): Promise<Response> {
    const res = countingRoundTrips
      ? await handleCounted(req, ctx, requestId, span)
      : await handle(req, ctx, requestId, span);
    const durationMs = performance.now() - started;
    const template = routeOf(req, paramsOf());
    if (span.isRecording()) {
      span.updateName(`${req.method} ${template}`);
      span.setAttributes({
        "http.request.method": req.method,
        "http.route": template,
        "http.response.status_code": res.status,
        "checkout.request_id": requestId,
      });
      if (res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    recordRequest(req.method, template, res.status, durationMs);
    if (timingHandlers) res.headers.set("Server-Timing", `handler;dur=${durationMs.toFixed(1)}`);
    apiHeaders ??= apiSecurityHeaders(env().appUrl);
    for (const [k, v] of Object.entries(apiHeaders)) res.headers.set(k, v);
    res.headers.set("X-Request-Id", requestId);
    // One line per request: what an operator filters and graphs by, never the body or the query.
    logger.info(
      {
        reqId: requestId,
        method: req.method,
        route: template,
        status: res.status,
        durationMs: Math.round(durationMs),
      },
      "request",
    );
    if (recordingAnswers()) await recordAnswer(req, res);
    return res;
  }

  /** Bench rig (lib/db/round-trips.ts): the database trips this request made. */
  async function handleCounted(req: Request, ctx: Parameters<typeof handle>[1], requestId: string, span: Span) {
    const [res, trips] = await withRoundTripCount(() => handle(req, ctx, requestId, span));
    res.headers.set("X-DB-Round-Trips", String(trips));
    return res;
  }

  async function handle(
    req: Request,
    ctx: { params: Promise<Record<string, string | string[] | undefined>> },
    requestId: string,
    span?: Span,
  ): Promise<Response> {
    try {
      let caller: ApiCaller | undefined;
      if (spec.apiKey) {
        const given =
          req.headers
            .get("authorization")
            ?.match(/^Bearer\s+(.+)$/i)?.[1]
            ?.trim() ?? "";
        caller = given ? await apiCallerOf((await appContext()).db, given, env().merchantApiKey) : undefined;
        if (!caller)
          return problem(
            "unauthorized",
            { detail: "Send Authorization: Bearer <an API key>." },
            { "WWW-Authenticate": "Bearer" },
          );
        if (!caller.scopes.includes(spec.apiKey))
          return problem("insufficient_scope", { detail: `This key needs the scope ${spec.apiKey}.` });
      }

      if (spec.ownPagesOnly && crossSiteRequest(req.headers))
        return problem("cross_site_action", { detail: "This is taken only from this site's own pages." });
      const params = parseInput(spec.params, await ctx.params, "params");
      const query = spec.query && parseInput(spec.query, queryOf(req.url), "query");
      let body: unknown;
      let rawBody = "";
      if (spec.body || spec.rawBody) {
        // Read as it streams and cut off at the limit: a huge body is never held in memory.
        rawBody = await readBodyLimited(req, MAX_BODY_BYTES);
      }
      if (spec.body) {
        // Only JSON declared as JSON: another site's form can send JSON-shaped text/plain.
        if (!declaredJson(req.headers))
          return problem("unsupported_media_type", { detail: "Send the body as Content-Type: application/json." });
        try {
          body = JSON.parse(rawBody);
        } catch {
          return problem("invalid_json");
        }
        body = parseInput(spec.body, body, "body");
      }
      const app = await appContext();
      if (spec.staff) {
        const member = await sessionOf(app.db, sessionTokenOf(req.headers.get("cookie")));
        if (member?.stage !== "full") return problem("unauthorized", { detail: "Sign in to the back office." });
        if (!allows(member.role, spec.staff)) return problem("role_forbidden");
      }
      const result = await handler({ req, ctx: app, params, query, body, rawBody, caller } as RouteInput<P, Q, B>);
      return result instanceof Response ? result : json(result);
    } catch (err) {
      if (err instanceof BodyTooLarge) return problem("body_too_large", { detail: `At most ${err.maxBytes} bytes.` });
      if (err instanceof BodyNotText) return problem("invalid_body", { detail: "The body is not UTF-8 text." });
      if (err instanceof InvalidInput) {
        return problem("invalid_request", { detail: `The request ${err.where} is not valid.`, errors: err.errors });
      }
      if (err instanceof RateLimitedError) {
        return problem(
          "rate_limited",
          { detail: `Try again in ${err.retryAfterSeconds} s.` },
          { "Retry-After": String(err.retryAfterSeconds) },
        );
      }
      if (err instanceof CheckoutError) {
        // A refusal we pass on from the provider: what it said is for the operator, not the caller.
        if (err.cause !== undefined)
          logger.warn(
            {
              reqId: requestId,
              method: req.method,
              route: routeOf(req),
              code: err.code,
              err: redactError(err.cause),
            },
            "provider answer",
          );
        return problem(err.code, err.extras);
      }
      if (noticeDatabaseAway(err)) {
        // Not a bug: every request says so while the database restarts, so one line each, no stack.
        logger.warn(
          { reqId: requestId, method: req.method, route: routeOf(req), err: errorText(err) },
          "database unavailable",
        );
        return problem(
          "service_unavailable",
          { detail: `The database does not answer; try again. Request id ${requestId}.` },
          { "Retry-After": String(DATABASE_RETRY_AFTER_S) },
        );
      }
      // The id ties the payer's report to this log line (and is in the X-Request-Id header).
      span?.recordException(redactError(err));
      logger.error(
        { reqId: requestId, method: req.method, route: routeOf(req), err: redactError(err) },
        "request failed",
      );
      return problem("internal_error", { detail: `Request id ${requestId}.` });
    }
  }
}

let apiHeaders: Record<string, string> | undefined;

/**
 * The query string as one value per field. A field given twice is refused: keeping one of the two
 * would answer a list filtered by a value the caller may not have meant.
 */
function queryOf(url: string): Record<string, string> {
  const search = new URL(url).searchParams;
  const repeated = [...new Set(search.keys())].filter((key) => search.getAll(key).length > 1);
  if (repeated.length > 0)
    throw new InvalidInput(
      "query",
      repeated.map((path) => ({ path, message: "must be given once" })),
    );
  return Object.fromEntries(search);
}

/** A database restart takes seconds; a client that waits this long is likely to find it back. */
const DATABASE_RETRY_AFTER_S = 2;

/** The driver's words, innermost last, without a query's text or its parameters. */
function errorText(err: unknown): string {
  const words: string[] = [];
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    // drizzle's own message quotes the statement and its parameters: only its class is said.
    words.push(
      e.name === "DrizzleQueryError" ? "query failed" : `${typeof code === "string" ? `${code} ` : ""}${e.message}`,
    );
  }
  return words.join(": ");
}

/** A request id a proxy in front already gave (so its log and ours match), or a new one. */
function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^[A-Za-z0-9._-]{8,64}$/.test(given) ? given : randomUUID();
}

type RouteParams = Record<string, string | string[] | undefined>;

/**
 * The route as its template, so log lines and metrics group by route and carry no identifiers of
 * payers nor made-up addresses: the segment each path parameter matched is `{id}` (a link's
 * slug too), what a catch-all matched `{...path}`. Ids are taken out by their look as well, for
 * a caller that has no parameters.
 */
export function routeOf(req: Request, params: RouteParams = {}): string {
  const segments = new URL(req.url).pathname.split("/");
  for (const value of Object.values(params)) {
    if (Array.isArray(value) && value.length > 0) segments.splice(-value.length, value.length, "{...path}");
  }
  for (const value of Object.values(params)) {
    if (typeof value !== "string") continue;
    // The first segment that reads as the value: the params come decoded, the path does not.
    const at = segments.findIndex((s, i) => i > 0 && (s === value || decoded(s) === value));
    if (at > 0) segments[at] = "{id}";
  }
  return segments.join("/").replace(/\/(co|pa|rf|ntf|al|plink)_[A-Za-z0-9_-]+/g, "/{id}");
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

type Taken = "GET" | "POST" | "DELETE";

/**
 * Answers for the methods a route file does not take. Next answers those 405 with no body, no
 * Allow and none of our headers; these answer problem+json naming what the address takes, and
 * OPTIONS the same (Next's own OPTIONS would list every exported method). A route file exports the
 * ones it lacks: `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST")`.
 * HEAD is Next's from GET where there is a GET.
 */
export function otherMethods(...taken: Taken[]) {
  const allow = [...taken.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])), "OPTIONS"].join(", ");
  const refuse = route({}, async () =>
    problem("method_not_allowed", { detail: `This address takes ${allow}.` }, { Allow: allow }),
  );
  const options = route({}, async () => new Response(null, { status: 204, headers: { Allow: allow } }));
  return everyMethod(refuse, options);
}

/** The same answer for every method a route file may export, OPTIONS's own if given. */
function everyMethod<H>(answer: H, options: H = answer) {
  return { GET: answer, HEAD: answer, POST: answer, PUT: answer, PATCH: answer, DELETE: answer, OPTIONS: options };
}

/** Answers for an address the API does not have (app/api/[...unknown]), for every method. */
export function unknownAddress() {
  return everyMethod(
    route({}, async () => problem("not_found", { detail: "See /api/openapi.json for the API's addresses." })),
  );
}
