// @vitest-environment happy-dom
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { BankView } from "@/lib/checkout/contract";
import { FIRST_SHOWN, useBankPicker } from "./use-bank-picker";

const bank = (id: string, name: string, popular = false): BankView => ({
  id,
  name,
  officialName: null,
  logoUrl: null,
  countryCode: "LT",
  popular,
  linkable: false,
  searchTerms: [name.toLowerCase()],
});
const many = Array.from({ length: 60 }, (_, i) => bank(`B${i}`, `Bank ${String(i).padStart(2, "0")}`));

afterEach(cleanup);

describe("useBankPicker", () => {
  it("shows the first 48 banks, and all of them after Show all", () => {
    const { result } = renderHook(() => useBankPicker(many, null));
    expect(result.current.shown).toHaveLength(FIRST_SHOWN);
    expect(result.current.hiddenCount).toBe(12);
    act(() => result.current.showAll());
    expect(result.current.shown).toHaveLength(60);
    expect(result.current.hiddenCount).toBe(0);
  });

  it("starts with all of them when the page was asked for the whole list (without scripts)", () => {
    const { result } = renderHook(() => useBankPicker(many, null, undefined, "", true));
    expect(result.current.shown).toHaveLength(60);
    expect(result.current.hiddenCount).toBe(0);
  });

  it("puts the payer's last-used bank first", () => {
    const { result } = renderHook(() => useBankPicker([bank("SEB", "SEB", true), bank("SWED", "Swedbank")], "SWED"));
    expect(result.current.shown.map((b) => b.id)).toEqual(["SWED", "SEB"]);
  });

  it("searches as the payer types, and a new search starts from the first 48 again", async () => {
    const { result } = renderHook(() => useBankPicker(many, null));
    act(() => result.current.showAll());
    act(() => result.current.setQuery("bank 05"));
    await waitFor(() => expect(result.current.searched).toBe("bank 05"));
    expect(result.current.shown.map((b) => b.id)).toEqual(["B5"]);
    act(() => result.current.setQuery(""));
    await waitFor(() => expect(result.current.shown).toHaveLength(FIRST_SHOWN));
  });

  it("has nothing to show while the banks are loading", () => {
    const { result } = renderHook(() => useBankPicker(null, "SWED"));
    expect(result.current.shown).toEqual([]);
    expect(result.current.hiddenCount).toBe(0);
  });
});
