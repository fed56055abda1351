/**
 * Test cards of the hosted card form. Only these numbers are accepted, so every outcome is chosen
 * on purpose; their first six digits also answer GET /auth/banks/cards/{cardNumberPiece}.
 */

export type CardBehaviour = "success" | "decline" | "verify";

export interface TestCard {
  number: string;
  behaviour: CardBehaviour;
  /** The test bank that "issued" it. */
  bankId: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: "4111111111111111", behaviour: "success", bankId: "SWEDBANK_LT_SAND" },
  { number: "4000000000000002", behaviour: "decline", bankId: "SEB_LT_SAND" },
  { number: "4000000000003220", behaviour: "verify", bankId: "SEB_LT_SAND" },
];

/** The one-time code of the verification step. */
export const TEST_OTP = "123456";

/** Card number prefixes (BINs) of test banks: the test cards' and a few more. */
const BINS: readonly { bin: string; bankId: string }[] = [
  { bin: "411111", bankId: "SWEDBANK_LT_SAND" },
  { bin: "400000", bankId: "SEB_LT_SAND" },
  { bin: "510510", bankId: "SWEDBANK_LV_SAND" },
  { bin: "555555", bankId: "LHV_EE_SAND" },
];

export const MIN_CARD_PIECE = 6;

export function bankIdForCardPiece(piece: string): string | undefined {
  return BINS.find((b) => piece.startsWith(b.bin))?.bankId;
}

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function findTestCard(number: string): TestCard | undefined {
  return TEST_CARDS.find((c) => c.number === number);
}

/** "4111 1111 1111 1111", as the page shows it. */
export function groupDigits(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, "$1 ");
}

export type CardFormError = "number" | "unknown" | "expiry" | "cvc" | "name";

/** Checks the card form; the first problem, or the test card. */
export function checkCardForm(form: URLSearchParams, nowMs: number): { error: CardFormError } | { card: TestCard } {
  const number = (form.get("number") ?? "").replace(/[\s-]/g, "");
  if (!luhnValid(number)) return { error: "number" };
  const card = findTestCard(number);
  if (!card) return { error: "unknown" };
  const expiry = /^\s*(\d{2})\s*\/\s*(\d{2})\s*$/.exec(form.get("expiry") ?? "");
  const month = Number(expiry?.[1]);
  const year = 2000 + Number(expiry?.[2]);
  const today = new Date(nowMs);
  const expired = year < today.getUTCFullYear() || (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1);
  if (!expiry || month < 1 || month > 12 || expired) return { error: "expiry" };
  if (!/^\d{3}$/.test((form.get("cvc") ?? "").trim())) return { error: "cvc" };
  if ((form.get("name") ?? "").trim() === "") return { error: "name" };
  return { card };
}
