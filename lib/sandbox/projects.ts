import { timingSafeEqual } from "node:crypto";

export const ALL_SCOPES = [
  "payments",
  "payments_pos",
  "accounts_basic",
  "accounts_details",
  "accounts_balances",
  "accounts_transactions",
] as const;
export type Scope = (typeof ALL_SCOPES)[number];

/** A merchant's project at the provider: its API credentials, the secret that signs its webhooks, its settings. */
export interface Project {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  /** The webhook endpoint secret; distinct from clientSecret, as at the real provider. */
  webhookSecret: string;
  /** `bank`, and `card` where the project has the card agreement. */
  paymentMethods?: readonly ("bank" | "card")[];
  /** Scopes the project may ask for on POST /auth. */
  scopes?: readonly Scope[];
  allowedRefundsFor?: readonly ("bank" | "card")[];
  bankRefundDayLimit?: number;
  cardRefundDayLimit?: number;
  redirectPreferred?: boolean;
  webhookDelayInSec?: number;
  paymentExpiresTmoInSec?: number;
  isACSPCompletedStatus?: boolean;
}

/** The documented test project (README.md); lib/env.ts repeats these values as its sandbox defaults. */
export const DEFAULT_PROJECT: Project = {
  id: "sandbox-project",
  name: "Sandbox test project",
  clientId: "sandbox-client-id",
  clientSecret: "sandbox-client-secret",
  webhookSecret: "sandbox-webhook-secret",
  paymentMethods: ["bank", "card"],
  scopes: ALL_SCOPES,
  allowedRefundsFor: ["bank", "card"],
};

/** A second documented project without the card agreement and without account information. */
export const NOCARD_PROJECT: Project = {
  id: "sandbox-nocard-project",
  name: "Sandbox project without cards",
  clientId: "sandbox-nocard-id",
  clientSecret: "sandbox-nocard-secret",
  webhookSecret: "sandbox-nocard-webhook-secret",
  paymentMethods: ["bank"],
  scopes: ["payments"],
  allowedRefundsFor: ["bank"],
};

export const BUILT_IN_PROJECTS: readonly Project[] = [DEFAULT_PROJECT, NOCARD_PROJECT];

const SEVEN_DAYS_S = 7 * 24 * 3600;

/** The project's settings with the sandbox's defaults filled in. */
export function settingsOf(project: Project) {
  return {
    paymentMethods: project.paymentMethods ?? ["bank"],
    scopes: project.scopes ?? ["payments"],
    allowedRefundsFor: project.allowedRefundsFor ?? ["bank"],
    bankRefundDayLimit: project.bankRefundDayLimit ?? 365,
    cardRefundDayLimit: project.cardRefundDayLimit ?? 180,
    redirectPreferred: project.redirectPreferred ?? false,
    webhookDelayInSec: project.webhookDelayInSec ?? 0,
    paymentExpiresTmoInSec: project.paymentExpiresTmoInSec ?? SEVEN_DAYS_S,
    isACSPCompletedStatus: project.isACSPCompletedStatus ?? false,
  };
}

/** GET /auth/project/settings (provider-api.md 4.6). */
export function projectSettingsJson(project: Project) {
  const s = settingsOf(project);
  return {
    scopes: s.scopes,
    isSandbox: true,
    paymentMethods: s.paymentMethods,
    allowedRefundsFor: s.allowedRefundsFor,
    forceRedirectToBankMode: "none",
    cardRefundDayLimit: s.cardRefundDayLimit,
    bankRefundDayLimit: s.bankRefundDayLimit,
    redirectPreferred: s.redirectPreferred,
    skipPaymentSCA: false,
    webhookDelayInSec: s.webhookDelayInSec,
    paymentExpiresTmoInSec: s.paymentExpiresTmoInSec,
    statusSettings: { isACSPCompletedStatus: s.isACSPCompletedStatus },
  };
}

export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The project these credentials belong to, or undefined when either is missing or wrong. */
export function authenticate(
  projects: ReadonlyMap<string, Project>,
  clientId: string | undefined,
  clientSecret: string | undefined,
): Project | undefined {
  if (!clientId || !clientSecret) return undefined;
  const project = projects.get(clientId);
  return project && sameSecret(clientSecret, project.clientSecret) ? project : undefined;
}

export function projectById(projects: ReadonlyMap<string, Project>, id: string): Project | undefined {
  for (const project of projects.values()) if (project.id === id) return project;
  return undefined;
}
