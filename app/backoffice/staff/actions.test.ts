import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { freshAppFor } from "@/app/api/test-env";
import { testDbKinds } from "@/lib/db/testing";

// Outside a request there is no cookie store or headers: this request's, as a browser sends them.
let peer = "203.0.113.20";
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined }),
  headers: async () => new Headers({ "user-agent": "test", "x-checkout-peer": peer }),
}));

const PASSWORD = "a long enough passphrase";

describe.each(testDbKinds())("setting a password from a link (%s)", (kind) => {
  freshAppFor(kind);
  let setPasswordAction: typeof import("./actions").setPasswordAction;
  let db: Awaited<ReturnType<typeof import("@/lib/checkout/app-context").appContext>>["db"];
  let listAudit: typeof import("@/lib/audit/audit").listAudit;
  beforeAll(async () => {
    ({ setPasswordAction } = await import("./actions"));
    db = (await (await import("@/lib/checkout/app-context")).appContext()).db;
    ({ listAudit } = await import("@/lib/audit/audit"));
  });

  const post = (token: string, password = PASSWORD) => {
    const form = new FormData();
    form.set("token", token);
    form.set("password", password);
    return setPasswordAction(null, form).catch((err: unknown) => err);
  };

  it("posts of links nobody was given write no audit row, and are refused per address past the limit", async () => {
    peer = "203.0.113.21";
    const before = (await listAudit(db, { limit: 5000 })).length;
    const answers = [];
    for (let i = 0; i < 50; i++) answers.push(await post(randomBytes(32).toString("base64url")));
    expect(answers[0]).toMatchObject({ ok: false, error: expect.stringMatching(/not valid/) });
    expect(answers.at(-1)).toMatchObject({ ok: false, error: expect.stringMatching(/Too many failed tries/) });
    expect((await listAudit(db, { limit: 5000 })).length - before).toBe(0);
  });

  it("a person's own link still sets their password after more weak tries than the limit, and that is audited", async () => {
    const { inviteStaff } = await import("@/lib/staff/accounts");
    const email = `set-${randomUUID()}@shop.example`;
    const { member, token } = await inviteStaff(
      { db, actor: { kind: "system", label: "test" } },
      { email, role: "viewer" },
    );
    peer = "203.0.113.22";
    // A weak password on a working link is the person's typo, not a guess: it uses up nothing.
    for (let i = 0; i < 12; i++) expect(await post(token, "short")).toMatchObject({ ok: false });
    expect(await post(token)).toMatchObject({ digest: expect.stringMatching(/NEXT_REDIRECT.*password=set/) });
    expect(await listAudit(db, { actorId: member.id, action: "staff.password_set" })).toMatchObject([
      { outcome: "succeeded" },
    ]);
  });
});
