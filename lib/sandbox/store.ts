import { DEFAULT_PROJECT, type Project } from "./projects";

export type StatusGroup = "started" | "pending" | "completed" | "failed";
/** The ISO 20022 bank statuses the sandbox uses so far (provider-api.md 5.2). */
export type BankStatus = "STRD" | "ACSC" | "CANC";
/** Where the payer is on the hosted page. */
export type HostedStep = "bank" | "login" | "confirm" | "done";

export interface AccountRef {
  iban: string;
  currencyCode: string;
}

export interface PaymentRecord {
  id: string;
  projectId: string;
  createdAt: number;
  updatedAt: number;
  amount: string;
  currencyCode: string;
  description: string;
  endToEndId: string;
  creditorName: string;
  creditorAccount: AccountRef;
  informationStructured?: { reference: string; referenceType?: string };
  requestedExecutionDate?: string;
  email?: string;
  hasCardPaymentMethod: boolean;
  /** Set at initiation (query bankId) or when the payer picks a bank on the hosted page. */
  bankId?: string;
  bankPreselected: boolean;
  debtorAccount?: AccountRef;
  redirectUrl: string;
  /** Kept exactly as given: the webhook signature covers this string. */
  webhookUrl?: string;
  lang?: string;
  redirectPreferred: boolean;
  bankStatus: BankStatus;
  statusGroup: StatusGroup;
  /** Reason codes reported by GET .../status (provider-api.md 5.5), e.g. 21004 for a cancel. */
  errorCodes: number[];
  step: HostedStep;
}

/** One attempt to deliver one webhook. */
export interface WebhookDelivery {
  paymentId: string;
  url: string;
  attempt: number;
  at: number;
  durationMs: number;
  /** HTTP status of the merchant's answer; null when there was none (network error, timeout). */
  statusCode: number | null;
  error?: string;
  /** When the next attempt is due, if this one failed and retries remain. */
  nextAttemptAt?: number;
}

/** The sandbox's whole state, in memory: a restart starts from a clean test project. */
export function createStore() {
  const projects = new Map<string, Project>([[DEFAULT_PROJECT.clientId, DEFAULT_PROJECT]]);
  return {
    /** Keyed by Client-Id. */
    projects,
    payments: new Map<string, PaymentRecord>(),
    deliveries: [] as WebhookDelivery[],
    addProject(project: Project) {
      projects.set(project.clientId, project);
    },
  };
}

export type Store = ReturnType<typeof createStore>;
