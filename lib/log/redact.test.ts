import { DrizzleQueryError } from "drizzle-orm/errors";
import { describe, expect, it } from "vitest";
import { redactArgs, redactError, redactText } from "./redact";

describe("what the logs may not carry", () => {
  it("a failed query keeps its SQL and its cause, never its parameters (IBANs, names)", () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "checkouts_pkey"'), {
      code: "23505",
    });
    const err = new DrizzleQueryError(
      "insert into checkouts (creditor_iban, creditor_name) values ($1, $2)",
      ["LT601010012345678901", "Jonas Jonaitis"],
      cause,
    );
    const safe = redactError(err);
    const printed = `${safe.stack}\n${String((safe.cause as Error).message)}`;
    expect(printed).toContain("insert into checkouts");
    expect(printed).toContain("2 parameters, not logged");
    expect(printed).toContain("checkouts_pkey");
    expect(printed).not.toContain("LT601010012345678901");
    expect(printed).not.toContain("Jonas");
    expect((safe.cause as { code?: string }).code).toBe("23505");
  });

  it("masks account numbers and secrets in any text", () => {
    expect(redactText("refund to LT60 1010 0123 4567 8901 failed")).toBe("refund to LT**…8901 failed");
    expect(redactText("Authorization: Bearer abc.def-123456789")).not.toContain("abc.def");
    expect(redactText('{"client_secret":"s3cr3t-value","x":1}')).not.toContain("s3cr3t-value");
    expect(redactText("checkout co_abc paid 12.50 EUR")).toBe("checkout co_abc paid 12.50 EUR");
    expect(redactText("receipt to jonas.jonaitis@example.lt")).toBe("receipt to j***@example.lt");
    expect(redactText("card 4111 1111 1111 1111 declined")).toBe("card [card …1111] declined");
    expect(redactText("at 2026-11-25T06:40:51.123Z took 1234567 ms")).toBe(
      "at 2026-11-25T06:40:51.123Z took 1234567 ms",
    );
  });

  it("rewrites every argument of a console call", () => {
    const [text, err, n] = redactArgs(["payer IBAN LT601010012345678901", new Error("token=abcdefgh1234"), 3]);
    expect(text).toBe("payer IBAN LT**…8901");
    expect((err as Error).message).not.toContain("abcdefgh1234");
    expect(n).toBe(3);
  });
});
