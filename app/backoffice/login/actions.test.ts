import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { freshAppFor } from "@/app/api/test-env";
import { INITIAL_LOGIN_STATE } from "@/components/backoffice/action-state";
import { testDbKinds } from "@/lib/db/testing";

// Outside a request there is no cookie store or headers: this request's, as a browser sends them.
let peer = "203.0.113.10";
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined }),
  headers: async () => new Headers({ "user-agent": "test", "x-checkout-peer": peer }),
}));

const PASSWORD = "a long enough passphrase";
const LIMIT = 10; // RATE_LIMIT_LOGIN_FAILURES_PER_IP's default

describe.each(testDbKinds())("failed sign-ins and the audit trail (%s)", (kind) => {
  freshAppFor(kind);
  let actions: typeof import("./actions");
  let db: Awaited<ReturnType<typeof import("@/lib/checkout/app-context").appContext>>["db"];
  let auditRows: () => Promise<number>;
  beforeAll(async () => {
    actions = await import("./actions");
    db = (await (await import("@/lib/checkout/app-context")).appContext()).db;
    const { listAudit } = await import("@/lib/audit/audit");
    auditRows = async () => (await listAudit(db, { limit: 5000 })).length;
  });

  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };

  it("guessing at a known account's password from one address writes a row per guess only until the limit refuses", async () => {
    const { inviteStaff, setPasswordFromLink } = await import("@/lib/staff/accounts");
    const email = `guessed-${randomUUID()}@shop.example`;
    const { token } = await inviteStaff({ db, actor: { kind: "system", label: "test" } }, { email, role: "viewer" });
    await setPasswordFromLink(db, { token, password: PASSWORD });
    peer = "203.0.113.11";
    const before = await auditRows();
    const answers = [];
    for (let i = 0; i < 50; i++)
      answers.push((await actions.login(INITIAL_LOGIN_STATE, form({ email, password: `wrong guess ${i}` }))).error);
    expect(answers.at(-1)).toMatch(/Too many failed tries/);
    expect((await auditRows()) - before).toBe(LIMIT);
  });

  it("guesses that name no account, passwords or passkeys, write no row at all", async () => {
    peer = "203.0.113.12";
    const before = await auditRows();
    for (let i = 0; i < 50; i++)
      await actions.login(INITIAL_LOGIN_STATE, form({ email: `nobody-${i}@shop.example`, password: PASSWORD }));
    peer = "203.0.113.13";
    const answer = JSON.stringify({
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" },
    });
    const answers = [];
    for (let i = 0; i < 50; i++) answers.push((await actions.answerPasskey(form({ step: "sign_in", answer }))).error);
    expect(answers.at(-1)).toMatch(/Too many failed tries/);
    expect((await auditRows()) - before).toBe(0);
  });
});
