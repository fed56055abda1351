import { afterEach, describe, expect, it, vi } from "vitest";
import { DATABASE_AWAY_DIGEST } from "@/lib/db/unavailable";
import { closedPort } from "@/lib/test-helpers/closed-port";

// Outside a request there is no cookie store or headers: this request's, as a browser sends them.
const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: (name: string) => (jar.has(name) ? { value: jar.get(name) } : undefined) }),
  headers: async () => new Headers({ "user-agent": "test" }),
}));

/** A Postgres that is down (restarting, failing over): nothing listens on its port. */
async function downDatabaseUrl(): Promise<string> {
  return `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`;
}

/** The back office's server code, loaded as an instance whose Postgres does not answer. */
async function backOfficeWithDatabaseDown() {
  vi.resetModules();
  vi.stubEnv("DATABASE_URL", await downDatabaseUrl());
  vi.stubEnv("PIS_BASE_URL", "");
  const { SESSION_COOKIE } = await import("@/lib/staff/sessions");
  jar.set(SESSION_COOKIE, "a".repeat(43));
  return {
    requireStaff: (await import("./require-staff")).requireStaff,
    login: (await import("@/app/backoffice/login/actions")).login,
  };
}

describe("the back office while its database does not answer", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    jar.clear();
  });

  it("shows a signed-in page as the error page that says it is back in a moment and tries again by itself", async () => {
    const { requireStaff } = await backOfficeWithDatabaseDown();
    const err = await requireStaff("checkouts.view").then(
      () => expect.fail("the page rendered"),
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ digest: DATABASE_AWAY_DIGEST });
  });

  it("says so on the sign-in form, in the staff member's words, instead of the error page", async () => {
    const { login } = await backOfficeWithDatabaseDown();
    const form = new FormData();
    form.set("email", "staff@example.com");
    form.set("password", "correct horse battery staple");
    await expect(login({ error: null }, form)).resolves.toEqual({
      error: "The back office cannot reach its database just now. Nothing was changed: try again in a moment.",
    });
  });
});
