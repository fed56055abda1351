import type { Bank } from "../pis";
import type { BankView } from "./contract";

/**
 * What the provider's bank list does not say: which banks most payers of a country use, and the
 * short names people type. Keyed by the bank code before the country suffix, so "SWEDBANK_LT" and
 * the sandbox's "SWEDBANK_LT_SAND" share an entry.
 */
const POPULAR: Record<string, string[]> = {
  LT: ["SWEDBANK", "SEB", "LUMINOR", "SIAULIU", "REVOLUT"],
  LV: ["SWEDBANK", "SEB", "CITADELE", "LUMINOR"],
  EE: ["SWEDBANK", "SEB", "LHV", "COOP", "LUMINOR"],
};

const SHORT_NAMES: Record<string, string[]> = {
  SWEDBANK: ["swed", "hansabank"],
  SIAULIU: ["sb", "siauliu bankas"],
  LUMINOR: ["dnb", "nordea"],
  CITADELE: ["parex"],
  COOP: ["coop pank", "krediidipank"],
};

/** Lower case with diacritics removed, so "siauliu" finds "Šiaulių". */
export function searchKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .trim();
}

const bankCode = (id: string) => id.split("_")[0] ?? id;

export function toBankViews(banks: Bank[], country: string): BankView[] {
  const popular = POPULAR[country] ?? [];
  const rank = (b: Bank) => {
    const i = popular.indexOf(bankCode(b.id));
    return i === -1 ? popular.length : i;
  };
  return banks
    .filter((b) => !b.isSavingsBank)
    .map((b) => ({ bank: b, rank: rank(b) }))
    .sort((a, b) => a.rank - b.rank || a.bank.name.localeCompare(b.bank.name, "en"))
    .map(({ bank, rank: r }) => ({
      id: bank.id,
      name: bank.name,
      officialName: bank.officialName ?? null,
      logoUrl: bank.imageUri ?? null,
      countryCode: bank.countryCode,
      popular: r < popular.length,
      // Absent before API v0.3: then a bank is assumed to allow it, and the provider has the last word.
      linkable: bank.isAccountLinkingSupported !== false,
      searchTerms: [
        ...new Set(
          [bank.name, bank.officialName ?? "", ...(SHORT_NAMES[bankCode(bank.id)] ?? [])]
            .filter(Boolean)
            .map(searchKey),
        ),
      ],
    }));
}
