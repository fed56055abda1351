import { describe, expect, it } from "vitest";
import { loadEnv } from "../lib/env";
import { REAL_PROVIDER_ENV } from "../lib/env-fixtures";
import { processesFor } from "./start-plan";

describe("npm start", () => {
  it("starts the sandbox provider and the demo merchant site beside the app when no provider is configured", () => {
    expect(processesFor(loadEnv({}), false).map((p) => p.name)).toEqual([
      "sandbox provider",
      "next",
      "demo merchant site",
    ]);
  });

  it("does not start the sandbox when PIS_BASE_URL points at a real provider", () => {
    const plan = processesFor(loadEnv(REAL_PROVIDER_ENV), false);
    expect(plan.map((p) => p.name)).toEqual(["next"]);
    expect(plan.flatMap((p) => p.args).join(" ")).not.toContain("sandbox");
  });

  it("serves on the configured port", () => {
    expect(processesFor(loadEnv({ PORT: "4000" }), false).find((p) => p.name === "next")!.args).toEqual([
      "node_modules/next/dist/bin/next",
      "start",
      "-p",
      "4000",
    ]);
  });
});
