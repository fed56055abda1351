import type { Store } from "./store";
import type { WebhookDispatcher } from "./webhooks";

/** What every handler of the sandbox needs. */
export interface SandboxContext {
  store: Store;
  now: () => number;
  /** Origin the payer's browser and the merchant use to reach the sandbox, without a trailing slash. */
  publicUrl: () => string;
  webhooks: WebhookDispatcher;
}
