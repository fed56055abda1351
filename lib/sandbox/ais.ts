import { createHash } from "node:crypto";
import { isIP } from "node:net";
import type { ApiCall } from "./call";
import { bearerLinking, requireScope } from "./auth";
import { findBank, makeIban } from "./banks";
import { apiErrors, header } from "./http";
import { MESSAGES } from "./i18n";
import type { Scope } from "./projects";
import type { Linking } from "./store";
import { accountsOf, type TestAccount } from "./users";
import { fromCents } from "./validation";

/**
 * Account information (provider-api.md 4.9) for linked accounts. Transactions and balances are
 * generated from a hash of the account and the day, so every run shows the same history.
 */

const PSU_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The PSU headers, required as the JVM client always sends all five (provider-api.md 2). The first
 * missing or malformed one is named, Joi-style.
 */
function checkPsuHeaders(call: ApiCall) {
  const get = (name: string) => header(call.req, name)?.trim() ?? "";
  const problems: [string, (v: string) => string | undefined][] = [
    ["PSU-IP-Address", (v) => (isIP(v) === 0 ? "must be a valid ip address" : undefined)],
    [
      "PSU-IP-Port",
      (v) => (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535 ? undefined : "must be a valid port"),
    ],
    ["PSU-User-Agent", () => undefined],
    ["PSU-Http-Method", (v) => (PSU_METHODS.includes(v) ? undefined : `must be one of [${PSU_METHODS.join(", ")}]`)],
    ["PSU-Device-ID", () => undefined],
  ];
  for (const [name, check] of problems) {
    const value = get(name);
    if (value === "") throw apiErrors.invalidPsuHeaders(`"${name}" is required`);
    const problem = check(value);
    if (problem) throw apiErrors.invalidPsuHeaders(`"${name}" ${problem}`);
  }
}

/** Token first (401), then PSU headers (400), then the scope (401). */
function access(call: ApiCall, ...scopes: Scope[]): { linking: Linking; accounts: TestAccount[] } {
  const linking = bearerLinking(call, true);
  checkPsuHeaders(call);
  requireScope(linking, ...scopes);
  const bank = findBank(linking.bankId);
  return { linking, accounts: bank ? accountsOf(bank, linking.user) : [] };
}

function oneAccount(call: ApiCall, accountId: string, scope: Scope): TestAccount {
  const account = access(call, scope).accounts.find((a) => a.id === accountId);
  if (!account) throw apiErrors.notFound("Account");
  return account;
}

const accountName = (account: TestAccount) => MESSAGES.en.accountKinds[account.kind];

/** GET /ais/accounts. */
export function listAccounts(call: ApiCall) {
  const { accounts } = access(call, "accounts_basic", "accounts_details");
  return {
    data: accounts.map((a) => ({
      id: a.id,
      iban: a.iban,
      type: a.type,
      currencyCode: a.currencyCode,
      name: accountName(a),
    })),
  };
}

/** GET /ais/accounts/{id}. */
export function accountDetails(call: ApiCall, accountId: string) {
  const a = oneAccount(call, accountId, "accounts_details");
  return { iban: a.iban, type: a.type, currencyCode: a.currencyCode, name: accountName(a), status: "enabled" };
}

// ---------------------------------------------------------------------------------------------
// Generated history.

const DAY_MS = 24 * 3600 * 1000;
/** How far back the test banks keep history. */
const HISTORY_DAYS = 730;

/** `bban`: the domestic account part before the generated digits; LT and EE have 16 characters, LV 17. */
const COUNTERPARTIES = [
  { name: "Maxima LT, UAB", country: "LT", bank: "7044", text: "Groceries" },
  { name: "Bolt Operations OÜ", country: "EE", bank: "2200", text: "Ride" },
  { name: "Telia Lietuva, AB", country: "LT", bank: "7300", text: "Mobile plan" },
  { name: "Ignitis UAB", country: "LT", bank: "4010", text: "Electricity" },
  { name: "Rimi Latvia SIA", country: "LV", bank: "HABA", text: "Groceries" },
  { name: "Circle K Eesti AS", country: "EE", bank: "1010", text: "Fuel" },
];
const EMPLOYER = { name: "Demo Employer UAB", country: "LT", bank: "7300", text: "Salary" };

function counterpartyIban(party: (typeof COUNTERPARTIES)[number], serial: number): string {
  const length = party.country === "LV" ? 17 : 16;
  return makeIban(party.country, `${party.bank}${String(serial).padStart(length - party.bank.length, "0")}`);
}

function digest(...parts: string[]): Buffer {
  return createHash("sha256").update(parts.join("/")).digest();
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function transactionsOn(account: TestAccount, date: string, today: string) {
  const h = digest(account.id, date);
  const count = (h[0] ?? 0) % 3;
  return Array.from({ length: count }, (_, i) => {
    const b = (n: number) => h[1 + i * 6 + n] ?? 0;
    const incoming = b(0) % 6 === 0;
    const party = incoming ? EMPLOYER : (COUNTERPARTIES[b(1) % COUNTERPARTIES.length] ?? EMPLOYER);
    const cents = (((b(2) << 8) | b(3)) % (incoming ? 150_000 : 12_000)) + 100;
    const isBooked = date < today;
    return {
      id: `${date.replaceAll("-", "")}-${h.toString("hex").slice(0, 12)}-${i}`,
      isBooked,
      amount: `${incoming ? "" : "-"}${fromCents(cents)}`,
      currencyCode: account.currencyCode,
      counterPartyName: party.name,
      counterPartyAccount: { iban: counterpartyIban(party, (b(4) << 8) | b(5)) },
      informationUnstructured: party.text,
      ...(isBooked && { bookingDate: date }),
      valueDate: date,
    };
  });
}

/** A required yyyy-MM-dd query parameter that names a real day. */
function dateParam(call: ApiCall, name: string): string {
  const value = call.url.searchParams.get(name);
  if (value === null || value === "") throw apiErrors.invalidRequest(`"${name}" is required`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || day(Date.parse(`${value}T00:00:00Z`) || 0) !== value) {
    throw apiErrors.invalidRequest(`"${name}" must be in yyyy-MM-dd format`);
  }
  return value;
}

/** GET /ais/accounts/{id}/transactions?dateFrom&dateTo (both yyyy-MM-dd, inclusive). */
export function accountTransactions(call: ApiCall, accountId: string) {
  const account = oneAccount(call, accountId, "accounts_transactions");
  const from = dateParam(call, "dateFrom");
  const to = dateParam(call, "dateTo");
  if (to < from) throw apiErrors.invalidRequest(`"dateTo" must be greater than or equal to "ref:dateFrom"`);

  const now = call.ctx.now();
  const today = day(now);
  const first = Math.max(Date.parse(`${from}T00:00:00Z`), Date.parse(`${today}T00:00:00Z`) - HISTORY_DAYS * DAY_MS);
  const last = Math.min(Date.parse(`${to}T00:00:00Z`), Date.parse(`${today}T00:00:00Z`));
  const data = [];
  // Newest first, as bank statements usually are.
  for (let t = last; t >= first; t -= DAY_MS) data.push(...transactionsOn(account, day(t), today));
  return { data };
}

/** GET /ais/accounts/{id}/balance: booked at the end of yesterday, and available after today's pending items. */
export function accountBalance(call: ApiCall, accountId: string) {
  const account = oneAccount(call, accountId, "accounts_balances");
  const h = digest(account.id, "balance");
  const base = (h.readUInt32BE(0) % (account.type === "SVGS" ? 2_000_000 : 500_000)) + 10_000;
  const today = day(call.ctx.now());
  const pending = transactionsOn(account, today, today).reduce((sum, t) => sum + Math.round(Number(t.amount) * 100), 0);
  return {
    data: [
      { type: "closingBooked", amount: fromCents(base), currencyCode: account.currencyCode },
      { type: "interimAvailable", amount: fromCents(Math.max(0, base + pending)), currencyCode: account.currencyCode },
    ],
  };
}
