import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

function capture() {
  const lines: string[] = [];
  const log = createLogger({ write: (line: string) => void lines.push(line) }, { level: "debug" });
  return { log, lines: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe("the server's log", () => {
  it("never writes a secret field, wherever it sits in a logged object and however it is spelled", () => {
    const { log, lines } = capture();
    log.info(
      {
        email: "jonas@example.lt",
        checkout: { id: "co_1", creditorIban: "LT601010012345678901", payer: { payerName: "Jonas Jonaitis" } },
        headers: { Authorization: "Bearer sk_live_1", "content-type": "application/json" },
        attempts: [{ id: "pa_1", accessToken: "tok-1" }],
        status: 200,
      },
      "seen",
    );
    const [line] = lines();
    expect(line).toMatchObject({
      msg: "seen",
      email: "[redacted]",
      checkout: { id: "co_1", creditorIban: "[redacted]", payer: { payerName: "[redacted]" } },
      headers: { Authorization: "[redacted]", "content-type": "application/json" },
      attempts: [{ id: "pa_1", accessToken: "[redacted]" }],
      status: 200,
    });
    expect(JSON.stringify(line)).not.toMatch(/jonas@|LT6010|Jonaitis|sk_live|tok-1/);
  });

  it("writes a request's line whole", () => {
    const { log, lines } = capture();
    const fields = { reqId: "lb-req-00042", method: "GET", route: "/api/banks", status: 200, durationMs: 1 };
    log.info(fields, "request");
    expect(lines()[0]).toMatchObject({ level: "info", msg: "request", ...fields });
  });

  it("still hands an error to its serializer, its message masked", () => {
    const { log, lines } = capture();
    log.error({ err: new Error("refused for LT601010012345678901") }, "failed");
    const err = lines()[0]!.err as Record<string, unknown>;
    expect(err.type).toBe("Error");
    expect(err.message).not.toContain("LT601010012345678901");
    expect(typeof err.stack).toBe("string");
  });

  it("writes an object that refers to itself", () => {
    const { log, lines } = capture();
    const node: Record<string, unknown> = { id: "n1", token: "t-1" };
    node.self = node;
    log.warn({ node }, "cyclic");
    expect(lines()[0]).toMatchObject({ msg: "cyclic", node: { id: "n1", token: "[redacted]" } });
    expect(JSON.stringify(lines()[0])).not.toContain("t-1");
  });
});
