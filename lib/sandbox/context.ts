import type { Faults } from "./faults";
import type { Store } from "./store";
import type { WebhookDispatcher } from "./webhooks";

export interface SandboxSettings {
  /** How long an approved bank payment stays pending (ACSP) before ACSC; 0 completes at once. */
  pendingMs: number;
  /** How long approvals of the test user `pending` stay pending when pendingMs is 0. */
  pendingUserMs: number;
  /** How long a refund stays `started` before it completes. */
  refundDelayMs: number;
  /** What control calls (/_sandbox/...) must send in X-Sandbox-Secret. */
  controlSecret: string;
}

/** What every handler of the sandbox needs. */
export interface SandboxContext {
  store: Store;
  /** The sandbox clock in epoch milliseconds: the real (or injected) clock plus time travel. */
  now: () => number;
  /** Origin the payer's browser and the merchant use to reach the sandbox, without a trailing slash. */
  publicUrl: () => string;
  /**
   * Whether a request's Host is a name the sandbox's pages answer to: its public URL's, or this
   * machine's loopback names on its port. A page of another site whose name was made to resolve here
   * (DNS rebinding) must not read the console or force a status with the browser's help.
   */
  servesHost: (host: string | undefined) => boolean;
  webhooks: WebhookDispatcher;
  settings: SandboxSettings;
  faults: Faults;
  /** Notes that the store changed, for persistence. */
  changed: () => void;
}
