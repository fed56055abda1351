/**
 * What the embedded picker (our frame) tells the merchant's page through postMessage: shared by
 * the frame's side (components/embed) and the loader (lib/embed/loader.ts). Browser-safe.
 */
export const MESSAGE_SOURCE = "bank-checkout";
export const EVENT_TYPES = ["ready", "bank-selected", "redirecting", "error", "resize"] as const;
export type BankCheckoutEventType = (typeof EVENT_TYPES)[number];
