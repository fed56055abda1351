import { describe, expect, it } from "vitest";
import { everyInterval } from "./rounds";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("everyInterval", () => {
  it("never runs two rounds at once, goes on after a failed one, and stops after waiting for the one under way", async () => {
    let active = 0;
    let most = 0;
    let rounds = 0;
    const failures: unknown[] = [];
    const stop = everyInterval(
      async () => {
        rounds++;
        active++;
        most = Math.max(most, active);
        await sleep(30); // longer than the interval
        active--;
        if (rounds === 1) throw new Error("first round fails");
      },
      5,
      (err) => failures.push(err),
    );
    // Stopped while a round is under way.
    await expect.poll(() => rounds >= 3 && active === 1, { timeout: 5_000 }).toBe(true);
    await stop();
    expect(active).toBe(0); // the round under way was waited for
    const after = rounds;
    await sleep(50);
    expect(rounds).toBe(after);
    expect(most).toBe(1);
    expect(failures).toHaveLength(1);
  });
});
