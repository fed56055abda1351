import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { closeFreshApp, freshAppEnv } from "@/app/api/test-env";

describe("an instance whose database cannot be reached", () => {
  afterAll(() => closeFreshApp());

  it("fails with one line naming DATABASE_URL and what failed, without its password", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    freshAppEnv({ databaseUrl: `postgres://checkout:hunter2-secret@127.0.0.1:${port}/checkout` });
    const { appContext } = await import("./app-context");
    const err = (await appContext().catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(
      /^DATABASE_URL \(postgres:\/\/checkout:\*\*\*\*@127\.0\.0\.1:\d+\/checkout\): .*ECONNREFUSED/,
    );
    expect(err.message).not.toContain("hunter2");
  });
});
