// @vitest-environment happy-dom
import { act, cleanup, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useDeadline } from "./Deadline";
import { deadlineText, type Expiry } from "./deadline-time";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const expiry = (minutes: number): Expiry => ({
  at: new Date(NOW + minutes * 60_000).toISOString(),
  serverNow: NOW,
  timeZone: "Europe/Vilnius",
});

describe("the deadline as the payer reads it", () => {
  it("is the time in the page's language and the given time zone", () => {
    expect(deadlineText(expiry(32), "lt", "Europe/Vilnius")).toBe("14:32");
    expect(deadlineText(expiry(32), "en", "UTC")).toBe("12:32 PM");
  });

  it("names the day when it is not today", () => {
    expect(deadlineText(expiry(13 * 60), "en", "Europe/Vilnius")).toBe("Sunday 03:00 AM");
  });
});

describe("useDeadline", () => {
  beforeEach(() => {
    // performance.now() too: the page's own clock, counted from when it was loaded.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("is open, then nearly over two minutes before the end, then over", async () => {
    const { result } = renderHook(() => useDeadline(expiry(10)));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toBe("open");
    await act(() => vi.advanceTimersByTimeAsync(8 * 60_000 - 1_000));
    expect(result.current).toBe("open");
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(result.current).toBe("soon");
    await act(() => vi.advanceTimersByTimeAsync(2 * 60_000));
    expect(result.current).toBe("ended");
  });

  it("counts by the server's clock, not a device's that is ahead", async () => {
    vi.setSystemTime(NOW + 30 * 60_000);
    const { result } = renderHook(() => useDeadline(expiry(10)));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toBe("open");
  });

  it("counts from when the page was loaded, not from when its code came alive", async () => {
    // A slow phone: the page shows at once (the server's HTML) and its code runs 90 s later.
    vi.advanceTimersByTime(90_000);
    const { result } = renderHook(() => useDeadline(expiry(10)));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current).toBe("open");
    await act(() => vi.advanceTimersByTimeAsync(8 * 60_000 - 90_000));
    expect(result.current).toBe("soon");
    await act(() => vi.advanceTimersByTimeAsync(2 * 60_000));
    expect(result.current).toBe("ended");
  });

  it("does nothing for a checkout that lasts longer", async () => {
    const { result } = renderHook(() => useDeadline(null));
    await act(() => vi.advanceTimersByTimeAsync(24 * 3600_000));
    expect(result.current).toBe("open");
  });
});
