import { readFileSync } from "node:fs";
import { escapeHtml } from "./http";

/** A test bank of the sandbox, with what the API shows and what the hosted page needs. */
interface TestBank {
  id: string;
  name: string;
  officialName: string;
  countryCode: string;
  bic: string;
  /** Brand-like colour of the generated logo; dark enough for white initials. */
  colour: string;
  /** Domestic account part of the test users' IBANs at this bank; its last two digits vary per account. */
  testBban: string;
  isBeta?: boolean;
  isAccountLinkingSupported?: boolean;
}

export const COUNTRIES: Readonly<Record<string, string>> = { LT: "Lithuania", LV: "Latvia", EE: "Estonia" };

const BANKS: readonly TestBank[] = [
  {
    id: "SWEDBANK_LT_SAND",
    name: "Swedbank",
    officialName: "Swedbank, AB",
    countryCode: "LT",
    bic: "HABALT22",
    colour: "#b8491a",
    testBban: "7300010000000001",
  },
  {
    id: "SEB_LT_SAND",
    name: "SEB",
    officialName: "AB SEB bankas",
    countryCode: "LT",
    bic: "CBVILT2X",
    colour: "#1f7a33",
    testBban: "7044010000000002",
  },
  {
    id: "LUMINOR_LT_SAND",
    name: "Luminor",
    officialName: "Luminor Bank AS Lietuvos skyrius",
    countryCode: "LT",
    bic: "AGBLLT2X",
    colour: "#481335",
    testBban: "4010010000000003",
  },
  {
    id: "SIAULIU_LT_SAND",
    name: "Šiaulių bankas",
    officialName: "AB Šiaulių bankas",
    countryCode: "LT",
    bic: "CBSBLT26",
    colour: "#00663d",
    testBban: "7180010000000004",
  },
  {
    id: "CITADELE_LT_SAND",
    name: "Citadele",
    officialName: "AS Citadele banka Lietuvos filialas",
    countryCode: "LT",
    bic: "INDULT2X",
    colour: "#b0102a",
    testBban: "7290010000000005",
  },
  {
    id: "REVOLUT_LT_SAND",
    name: "Revolut",
    officialName: "Revolut Bank UAB",
    countryCode: "LT",
    bic: "REVOLT21",
    colour: "#191c1f",
    testBban: "3250010000000006",
    isBeta: true,
    isAccountLinkingSupported: false,
  },
  {
    id: "SWEDBANK_LV_SAND",
    name: "Swedbank",
    officialName: "Swedbank AS",
    countryCode: "LV",
    bic: "HABALV22",
    colour: "#b8491a",
    testBban: "HABA0000000000001",
  },
  {
    id: "SEB_LV_SAND",
    name: "SEB",
    officialName: "AS SEB banka",
    countryCode: "LV",
    bic: "UNLALV2X",
    colour: "#1f7a33",
    testBban: "UNLA0000000000002",
  },
  {
    id: "CITADELE_LV_SAND",
    name: "Citadele",
    officialName: "AS Citadele banka",
    countryCode: "LV",
    bic: "PARXLV22",
    colour: "#b0102a",
    testBban: "PARX0000000000003",
  },
  {
    id: "LUMINOR_LV_SAND",
    name: "Luminor",
    officialName: "Luminor Bank AS Latvijas filiāle",
    countryCode: "LV",
    bic: "RIKOLV2X",
    colour: "#481335",
    testBban: "RIKO0000000000004",
  },
  {
    id: "SWEDBANK_EE_SAND",
    name: "Swedbank",
    officialName: "Swedbank AS",
    countryCode: "EE",
    bic: "HABAEE2X",
    colour: "#b8491a",
    testBban: "2200000000000001",
  },
  {
    id: "SEB_EE_SAND",
    name: "SEB",
    officialName: "AS SEB Pank",
    countryCode: "EE",
    bic: "EEUHEE2X",
    colour: "#1f7a33",
    testBban: "1000000000000002",
  },
  {
    id: "LHV_EE_SAND",
    name: "LHV",
    officialName: "AS LHV Pank",
    countryCode: "EE",
    bic: "LHVBEE22",
    colour: "#222222",
    testBban: "7700000000000003",
  },
  {
    id: "COOP_EE_SAND",
    name: "Coop Pank",
    officialName: "AS Coop Pank",
    countryCode: "EE",
    bic: "EKRDEE22",
    colour: "#0046ad",
    testBban: "4200000000000004",
  },
  {
    id: "LUMINOR_EE_SAND",
    name: "Luminor",
    officialName: "Luminor Bank AS",
    countryCode: "EE",
    bic: "RIKOEE22",
    colour: "#481335",
    testBban: "1700000000000005",
  },
];

const byId = new Map(BANKS.map((bank) => [bank.id, bank]));

export type { TestBank };

export function findBank(id: string): TestBank | undefined {
  return byId.get(id);
}

/** All test banks, or those of one country. */
export function listBanks(countryCode?: string): TestBank[] {
  return BANKS.filter((bank) => countryCode === undefined || bank.countryCode === countryCode);
}

/**
 * The officially assigned ISO 3166-1 alpha-2 codes (249, as in Debian's iso-codes and the tz
 * database's iso3166.tab). A static list: Intl.DisplayNames also names EU, UK and XK, which are not assigned.
 */
const ISO_COUNTRY_CODES = new Set(
  `
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT
  BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH
  ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT
  HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS
  LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI
  NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG
  SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG
  UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
`
    .trim()
    .split(/\s+/),
);

/** A real country: the provider refuses other codes with 400 InvalidCountryCode (provider-api.md 6). */
export function isCountryCode(value: string): boolean {
  return ISO_COUNTRY_CODES.has(value);
}

/**
 * The Bank object as the provider's API shows it (provider-api.md 4.1). v0.1 and v0.2 banks carry
 * only the early fields (ADR 6).
 */
export function bankJson(bank: TestBank, publicUrl: string, full = true) {
  const early = {
    id: bank.id,
    name: bank.name,
    officialName: bank.officialName,
    countryCode: bank.countryCode,
    isSandbox: true,
    imageUri: `${publicUrl}${logoPath(bank)}`,
    bic: bank.bic,
  };
  if (!full) return early;
  return {
    ...early,
    scaApproaches: { AIS: ["REDIRECT"], PIS: ["REDIRECT"], AUTH: ["REDIRECT"] },
    isBeta: bank.isBeta ?? false,
    hasSavingsBanks: false,
    isSavingsBank: false,
    isAccountLinkingSupported: supportsLinking(bank),
  };
}

export function supportsLinking(bank: TestBank): boolean {
  return bank.isAccountLinkingSupported ?? true;
}

/** A valid IBAN (correct ISO 13616 check digits) for a country and domestic account part. */
export function makeIban(countryCode: string, bban: string): string {
  const digits = `${bban}${countryCode}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return `${countryCode}${String(98 - remainder).padStart(2, "0")}${bban}`;
}

function initials(name: string): string {
  if (name.length <= 3) return name;
  const words = name.split(/\s+/).filter(Boolean);
  return words
    .slice(0, 2)
    .map((word) => word[0] ?? "")
    .join("")
    .toUpperCase();
}

/**
 * A generated 96x96 logo: the bank's initials on a rounded square in its colour. The sandbox
 * serves it drawn as PNG (lib/sandbox/logos, made by scripts/sandbox-logos.ts), as the provider's
 * CDN serves its logos.
 */
export function logoSvg(bank: TestBank): string {
  const text = initials(bank.name);
  const fontSize = text.length > 2 ? 30 : 40;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96" role="img" aria-label="${escapeHtml(bank.name)}">` +
    `<title>${escapeHtml(bank.name)}</title>` +
    `<rect width="96" height="96" rx="20" fill="${bank.colour}"/>` +
    `<text x="48" y="48" dy=".35em" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="${fontSize}" font-weight="700" fill="#fff">${escapeHtml(text)}</text>` +
    `</svg>`
  );
}

/** Where the sandbox serves a bank's logo (its `imageUri`, on the sandbox's own origin). */
export function logoPath(bank: TestBank): string {
  return `/logos/${encodeURIComponent(bank.id)}.png`;
}

const logos = new Map<string, Buffer>();

/** The bank's logo as the sandbox serves it: logoSvg drawn as a PNG, read once. */
export function logoPng(bank: TestBank): Buffer {
  let png = logos.get(bank.id);
  if (!png) {
    png = readFileSync(new URL(`./logos/${bank.id}.png`, import.meta.url));
    logos.set(bank.id, png);
  }
  return png;
}
