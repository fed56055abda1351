import { BUILT_IN_PROJECTS, type Project, type Scope } from "./projects";
import type { ApiVersion } from "./versions";

export type StatusGroup = "started" | "pending" | "completed" | "failed";
/** Which status field stands in the payment's status position (bankStatus, cardStatus, hybridStatus). */
export type StatusKind = "bank" | "card" | "hybrid";
/** How the payment was initiated: bank only, card preferred, or hybrid (the payer picks). */
export type PaymentMethod = "bank" | "card" | "hybrid";
/** Who moved a status: useful in the console's history. */
export type ChangeSource = "api" | "payer" | "sandbox" | "console" | "control";
/** Where the payer is on the hosted page. */
export type PaymentStep = "method" | "bank" | "login" | "confirm" | "card" | "card-verify" | "done";
export type AuthStep = "bank" | "login" | "card" | "card-verify" | "consent" | "done";

export interface AccountRef {
  iban: string;
  currencyCode: string;
}

export interface StatusChange {
  at: number;
  kind: StatusKind;
  code: string;
  group: StatusGroup;
  errorCodes: number[];
  source: ChangeSource;
}

/** A hosted link (confirmLink, authorizationLink) works once: the first visit binds it to one browser. */
export interface LinkClaim {
  /** Cookie value of the browser that opened the link first. */
  token?: string;
  claimedAt?: number;
}

export interface PaymentRecord {
  id: string;
  projectId: string;
  version: ApiVersion;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  amount: string;
  currencyCode: string;
  description: string;
  endToEndId: string;
  creditorName: string;
  creditorAccount: AccountRef;
  informationStructured?: { reference: string; referenceType?: string };
  requestedExecutionDate?: string;
  email?: string;
  method: PaymentMethod;
  /** Set at initiation (query bankId, linked account) or when the payer picks a bank. */
  bankId?: string;
  bankPreselected: boolean;
  debtorAccount?: AccountRef;
  redirectUrl: string;
  /** Kept exactly as given: the webhook signature covers this string. */
  webhookUrl?: string;
  lang?: string;
  countryCode?: string;
  redirectPreferred: boolean;
  /** The account link (POST /auth) whose Bearer token started this payment. */
  linkingId?: string;
  statusKind: StatusKind;
  statusCode: string;
  statusGroup: StatusGroup;
  /** Reason codes reported by GET .../status (provider-api.md 5.5), e.g. 21004 for a cancel. */
  errorCodes: number[];
  history: StatusChange[];
  /** When an approved payment that went pending completes on its own. */
  pendingUntil?: number;
  completedAt?: number;
  step: PaymentStep;
  link: LinkClaim;
  /** The test-bank user who logged in. */
  user?: string;
}

export interface RefundRecord {
  id: number;
  paymentId: string;
  projectId: string;
  amount: string;
  currencyCode: string;
  statusGroup: StatusGroup;
  /** "" when neither the refund nor its payment had a Webhook-URL. */
  webhookUrl: string;
  createdAt: number;
  updatedAt: number;
  /** When a started refund completes on its own. */
  completeAt?: number;
}

export type WebhookType = "PAYMENT" | "PAYMENT_REFUND";

/** One webhook to deliver, retried until a 200 or the schedule runs out. */
export interface WebhookJob {
  id: number;
  type: WebhookType;
  projectId: string;
  paymentId: string;
  refundId?: number;
  url: string;
  rawBody: string;
  /** Number of the next attempt (1-based). */
  attempt: number;
  /** Sandbox-clock time of the next attempt; undefined once delivered or given up. */
  nextAttemptAt?: number;
}

/** One attempt to deliver one webhook. */
export interface WebhookDelivery {
  jobId: number;
  type: WebhookType;
  paymentId: string;
  refundId?: number;
  url: string;
  attempt: number;
  at: number;
  durationMs: number;
  /** HTTP status of the merchant's answer; null when there was none (network error, timeout). */
  statusCode: number | null;
  error?: string;
  /** When the next attempt is due, if this one failed and retries remain. */
  nextAttemptAt?: number;
  rawBody: string;
}

/** POST /auth: an account-linking request and its hosted flow. */
export interface AuthRequest {
  state: string;
  projectId: string;
  version: ApiVersion;
  requestId: string;
  redirectUrl: string;
  webhookUrl?: string;
  scopes: Scope[];
  /** `card`: card linking (`cardMethod: {}`); the card's issuing test bank becomes the linked bank. */
  method?: "bank" | "card";
  bankId?: string;
  bankPreselected: boolean;
  redirectPreferred: boolean;
  lang?: string;
  countryCode?: string;
  email?: string;
  createdAt: number;
  expiresAt: number;
  step: AuthStep;
  link: LinkClaim;
  user?: string;
  outcome?: "success" | "failure";
  code?: string;
}

export interface AuthCode {
  code: string;
  projectId: string;
  linkingId: string;
  expiresAt: number;
  used: boolean;
}

/** A payer's consent from a finished account link: the bank, the test user and the scopes. */
export interface Linking {
  id: string;
  projectId: string;
  bankId: string;
  user: string;
  scopes: Scope[];
  createdAt: number;
  expiresAt: number;
  /** The payer withdrew consent at the bank (POST /_sandbox/linkings/{id}/revoke): every token is dead. */
  revokedAt?: number;
}

export interface TokenRecord {
  token: string;
  kind: "access" | "refresh";
  linkingId: string;
  projectId: string;
  expiresAt: number;
  /** Refresh tokens rotate: a used one is dead. */
  used?: boolean;
}

/** The deliveries kept in memory and on disk; older ones are dropped. */
export const MAX_DELIVERIES = 2000;

/** Everything the sandbox remembers (projects aside, which are built in). */
function emptyState() {
  return {
    payments: new Map<string, PaymentRecord>(),
    refunds: new Map<number, RefundRecord>(),
    webhookJobs: new Map<number, WebhookJob>(),
    deliveries: [] as WebhookDelivery[],
    authRequests: new Map<string, AuthRequest>(),
    authCodes: new Map<string, AuthCode>(),
    linkings: new Map<string, Linking>(),
    tokens: new Map<string, TokenRecord>(),
    counters: { refund: 0, webhookJob: 0 },
    /**
     * What the clock may still move on (runDueTransitions): payments started or pending, refunds
     * started. It runs before every request, and walking every payment ever made there cost the
     * sandbox more with each one (an hour at 20 checkouts a second: 70,000).
     */
    unsettled: { payments: new Set<PaymentRecord>(), refunds: new Set<RefundRecord>() },
    /** Time travel: added to the real clock (POST /_sandbox/clock). */
    clock: { offsetMs: 0 },
  };
}

export function createStore() {
  const projects = new Map<string, Project>(BUILT_IN_PROJECTS.map((p) => [p.clientId, p]));
  const state = emptyState();
  return {
    /** Keyed by Client-Id. */
    projects,
    ...state,
    addProject(project: Project) {
      projects.set(project.clientId, project);
    },
    /** Forgets everything but the built-in projects, in place (handlers hold this object). */
    clear() {
      projects.clear();
      for (const p of BUILT_IN_PROJECTS) projects.set(p.clientId, p);
      for (const map of [
        state.payments,
        state.refunds,
        state.webhookJobs,
        state.authRequests,
        state.authCodes,
        state.linkings,
        state.tokens,
        state.unsettled.payments,
        state.unsettled.refunds,
      ]) {
        map.clear();
      }
      state.deliveries.length = 0;
      state.counters.refund = 0;
      state.counters.webhookJob = 0;
      state.clock.offsetMs = 0;
    },
  };
}

export type Store = ReturnType<typeof createStore>;

export function paymentRefunds(store: Store, paymentId: string): RefundRecord[] {
  return [...store.refunds.values()].filter((r) => r.paymentId === paymentId).sort((a, b) => a.id - b.id);
}
