import { NextResponse, type NextRequest } from "next/server";
import { AWAY_HEADER, AWAY_PAGE, AWAY_RETRY_AFTER_S } from "@/lib/http/away-page";
import { databaseAwayHint } from "@/lib/db/away";
import { env } from "@/lib/env";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE_S, chosenLocale } from "@/lib/i18n/cookie";
import { crossSiteRequest } from "@/lib/http/cross-site";
import { problem } from "@/lib/http/problem";
import { payPageStatus } from "@/lib/payment-links/page-state";
import { apiSecurityHeaders, commonSecurityHeaders, newNonce, pageCsp } from "@/lib/http/security-headers";

/**
 * Security headers on every page, and a fresh CSP nonce per page request
 * (docs/adr/0010-security-headers.md). Next.js reads the nonce from the request's
 * Content-Security-Policy header and puts it on its own scripts, so the policy is set on the
 * request (for Next) and on the response (for the browser). API routes set theirs in the route
 * wrapper (lib/http/route.ts), without the cost of a proxy pass.
 */
const LANDING = /^\/checkout\/[^/]+\/return$/;
/** The bank picker a merchant's own page frames (embed.js, ADR 20): framable by EMBED_ORIGINS. */
const EMBED = /^\/checkout\/[^/]+\/embed$/;

export async function proxy(request: NextRequest) {
  const settings = env();
  // A path Next cannot decode (a stray %, bytes that are not UTF-8) it answers with a bare 500
  // (vercel/next.js#92527) after this runs: the client's error, refused here with our headers. API
  // paths come here only when they hold a % (the matcher), and go on when it decodes.
  const api = request.nextUrl.pathname.startsWith("/api/");
  if (!decodable(request.nextUrl.pathname)) return undecodablePath(api, settings.appUrl);
  if (api) return NextResponse.next();
  const frameAncestors = EMBED.test(request.nextUrl.pathname) ? settings.embedOrigins : [];
  const common = commonSecurityHeaders(settings.appUrl, { framable: frameAncestors.length > 0 });
  // Pages take bodies only as server actions and forms, all small and sent with their length by
  // every browser: a body over the limit, or one streamed without a length (which could be any
  // size), is refused here, before Next reads it for an action; so is an action from another site.
  const refused = await postRefusal(request);
  if (refused) {
    for (const [k, v] of Object.entries(common)) refused.headers.set(k, v);
    return refused;
  }
  const nonce = newNonce();
  const csp = pageCsp({
    nonce,
    appUrl: settings.appUrl,
    providerBaseUrl: settings.pisBaseUrl,
    confirmOrigins: settings.confirmOrigins,
    dev: process.env.NODE_ENV === "development",
    frameAncestors,
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.delete(AWAY_HEADER); // said by this proxy alone
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  // This instance found its database away seconds ago: a page asked now would fail its render with
  // a 500, so it answers at once, 503 with Retry-After, with the page that says the checkout is back
  // in a moment and tries again (lib/db/away.ts, ADR 39). Its query (?lang=) goes along.
  const away = databaseAwayHint() && documentRequest(request);
  // The page's own address, for its Try again (a header of this proxy's alone, deleted above).
  if (away) requestHeaders.set(AWAY_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  // A payment link's page that says the link ended answers 410 (lib/payment-links/page-state.ts).
  const status = away ? 503 : payPageStatus(request.nextUrl.pathname, request.nextUrl.searchParams);
  const init = { request: { headers: requestHeaders }, ...(status && { status }) };
  const response = away
    ? NextResponse.rewrite(new URL(AWAY_PAGE + request.nextUrl.search, request.url), init)
    : NextResponse.next(init);
  for (const [k, v] of Object.entries(common)) response.headers.set(k, v);
  response.headers.set("Content-Security-Policy", csp);
  if (away) {
    response.headers.set("Retry-After", String(AWAY_RETRY_AFTER_S));
    response.headers.set("Cache-Control", "no-store");
  } else if (LANDING.test(request.nextUrl.pathname)) {
    // The landing page may be kept for Back and Forward (revalidated on every load, never in a
    // shared cache); Next's default no-store would keep it out of the back/forward cache. Its
    // status query asks the server again when the page is restored.
    response.headers.set("Cache-Control", "private, no-cache, max-age=0, must-revalidate");
  }
  // A language chosen with ?lang= (the switcher's links) is remembered here, on the server, so the
  // landing page after the bank, which has no ?lang=, speaks it too; the switcher needs no script.
  const lang = chosenLocale(request.nextUrl.searchParams.get("lang"));
  if (lang && request.cookies.get(LANG_COOKIE)?.value !== lang) {
    response.cookies.set(LANG_COOKIE, lang, {
      path: "/",
      maxAge: LANG_COOKIE_MAX_AGE_S,
      sameSite: "lax",
      secure: settings.appUrl.startsWith("https:"),
    });
  }
  return response;
}

/** A browser loading a page as a document: not the RSC payload of a navigation, an action or a file. */
function documentRequest(request: NextRequest): boolean {
  return (
    (request.method === "GET" || request.method === "HEAD") &&
    !request.headers.has("rsc") &&
    (request.headers.get("accept") ?? "").includes("text/html")
  );
}

function decodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** Nothing on the page but words: the strict policy the API answers with fits it. */
function undecodablePath(api: boolean, appUrl: string): Response {
  const res = api
    ? problem("invalid_request", { detail: "The path is not valid percent-encoding." })
    : new Response("This address is not valid. Check the link you were given.", {
        status: 400,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
  for (const [k, v] of Object.entries(apiSecurityHeaders(appUrl))) res.headers.set(k, v);
  return res;
}

async function postRefusal(request: NextRequest): Promise<Response | null> {
  if (request.method === "GET" || request.method === "HEAD") return null;
  // Next refuses an action from another site with a 500; the payer's own forms (pay, stop, forget
  // the saved account) it would take, and a page elsewhere could start saving a bank account in the
  // payer's name, replacing their browser's handle: refused here as the sender's error.
  if (crossSiteRequest(request.headers))
    return problem("cross_site_action", { detail: "A form is taken only from this site's own pages." });
  const length = request.headers.get("content-length");
  if (length === null) return problem("length_required", { detail: "Send the request body with a Content-Length." });
  if (Number(length) > MAX_BODY_BYTES) return problem("body_too_large", { detail: `At most ${MAX_BODY_BYTES} bytes.` });
  // Our actions take a form with fields, which React sends as multipart, or nothing at all (a
  // Sign out button: the body is "[]"). Next answers 500 to some other bodies it cannot decode (a
  // JSON argument holding "$", say): those never reach it.
  const type = request.headers.get("content-type") ?? "";
  if (request.headers.has("next-action") && !type.startsWith("multipart/form-data")) {
    const noArguments = Number(length) === 2 && (await request.clone().text()) === "[]";
    if (!noArguments) return problem("invalid_body", { detail: "A server action takes a form (multipart/form-data)." });
  }
  return null;
}

export const config = {
  // Static build assets are immutable files with no secrets and no script context: next.config.mjs
  // gives them nosniff. API routes set their own headers, and so do the two files route handlers
  // serve (embed.js, stylesheet.css). Everything else (pages, RSC requests, server actions) comes
  // here, and API paths holding a %, to be refused if they do not decode (above). The files are
  // skipped by their whole path: "/embed.jsX" is a page (a 404) and gets a page's headers.
  matcher: ["/((?!api/|_next/static/|_next/image$|favicon\\.svg$|embed\\.js$|stylesheet\\.css$).*)", "/api/(.*%.*)"],
};
