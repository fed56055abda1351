/**
 * The three API versions the sandbox serves (provider-api.md 11, refined by ADR 6). A payment
 * remembers the version it was created with, because its webhook body follows that version.
 */

export const API_VERSIONS = ["v0.1", "v0.2", "v0.3"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export function isApiVersion(value: string): value is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(value);
}

export type Feature =
  /** bankStatus/cardStatus/hybridStatus instead of the single `status` of v0.1 and v0.2. */
  | "statusKinds"
  /** The v0.3 nested payment body (`bankPaymentMethod`); v0.2 accepts it beside the flat one. */
  | "nestedBody"
  /** The v0.1/v0.2 flat payment body. */
  | "flatBody"
  /** The later Bank flags (isBeta, scaApproaches, ...). */
  | "fullBank"
  | "cards"
  | "refunds"
  | "paymentMethods"
  | "projectSettings"
  | "bankByCard"
  | "ais"
  | "authWebhook";

const FEATURES: Readonly<Record<ApiVersion, ReadonlySet<Feature>>> = {
  "v0.1": new Set(["flatBody"]),
  "v0.2": new Set(["flatBody", "nestedBody"]),
  "v0.3": new Set([
    "nestedBody",
    "statusKinds",
    "fullBank",
    "cards",
    "refunds",
    "paymentMethods",
    "projectSettings",
    "bankByCard",
    "ais",
    "authWebhook",
  ]),
};

export function supports(version: ApiVersion, feature: Feature): boolean {
  return FEATURES[version].has(feature);
}
