import { createHash } from "node:crypto";
import { makeIban, type TestBank } from "./banks";

/**
 * The test bank's users. Every test bank knows the same users; each has two accounts there, with
 * IBANs derived from the bank, so the data is the same on every run.
 */

export interface TestUser {
  username: string;
  password: string;
  /** `pending`: approvals stay ACSP (pending) for a while before ACSC, to exercise "pending, then completed". */
  approvals: "complete" | "pending";
}

export const TEST_USERS: readonly TestUser[] = [
  { username: "test", password: "1234", approvals: "complete" },
  { username: "pending", password: "1234", approvals: "pending" },
];

export function findUser(username: string | null, password: string | null): TestUser | undefined {
  return TEST_USERS.find((u) => u.username === username && u.password === password);
}

export function userNamed(username: string | undefined): TestUser | undefined {
  return TEST_USERS.find((u) => u.username === username);
}

export interface TestAccount {
  id: string;
  bankId: string;
  username: string;
  iban: string;
  /** An i18n key: `everyday` or `savings`. */
  kind: "everyday" | "savings";
  /** ISO 20022 cash account type. */
  type: "CACC" | "SVGS";
  currencyCode: string;
}

const KINDS = [
  { kind: "everyday", type: "CACC" },
  { kind: "savings", type: "SVGS" },
] as const;

/** The user's two accounts at this bank. */
export function accountsOf(bank: TestBank, username: string): TestAccount[] {
  const userIndex = Math.max(
    0,
    TEST_USERS.findIndex((u) => u.username === username),
  );
  return KINDS.map(({ kind, type }, i) => {
    const serial = String(userIndex * KINDS.length + i + 1).padStart(2, "0");
    return {
      id: createHash("sha256").update(`${bank.id}/${username}/${i}`).digest("hex").slice(0, 32),
      bankId: bank.id,
      username,
      iban: makeIban(bank.countryCode, `${bank.testBban.slice(0, -2)}${serial}`),
      kind,
      type,
      currencyCode: "EUR",
    };
  });
}
