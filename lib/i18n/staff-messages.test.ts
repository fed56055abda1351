import { describe, expect, it } from "vitest";
import { LOCALES } from "../checkout/types";
import { staffMessages, staffText } from "./staff-messages";

const slots = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the staff's sign-in words", () => {
  it.each(LOCALES.filter((l) => l !== "en"))("%s has every message, each with English's placeholders", (locale) => {
    const en = staffMessages("en");
    const other = staffMessages(locale);
    for (const id of Object.keys(en) as (keyof typeof en)[]) {
      expect(other[id]?.trim(), id).toBeTruthy();
      expect([id, slots(other[id])]).toEqual([id, slots(en[id])]);
    }
  });

  it("fills in the values", () => {
    expect(staffText(staffMessages("lt"), "signIn.tooMany", { minutes: 15 })).toBe(
      "Per daug nesėkmingų bandymų. Bandykite dar kartą po 15 min.",
    );
  });
});
