import type { z } from "zod";
import { bank, legacyBank, type Bank } from "./schemas";

/**
 * Everything that differs between API versions, in one place (provider-api.md 11, ADR 6). The
 * paths are the same in every version; the version is the path segment after the base URL.
 * Area modules ask the profile instead of comparing version strings.
 */

export type ApiVersion = "v0.1" | "v0.2" | "v0.3";
export const API_VERSIONS = ["v0.1", "v0.2", "v0.3"] as const satisfies readonly ApiVersion[];

export type PsuHttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The payer (PSU, "payment service user") as the merchant saw them: the provider forwards this to
 * the bank, which may use it for fraud checks. Pass the values of the payer's own request to us.
 */
export interface Psu {
  ipAddress: string;
  ipPort?: string | number;
  userAgent?: string;
  deviceId?: string;
  /** The method of the payer's request to us. */
  httpMethod?: PsuHttpMethod;
}

/** Account information calls need all five PSU headers (the JVM client sends them all). */
export type AccountPsu = Required<Psu>;

const PSU_HEADER = {
  ipAddress: "PSU-IP-Address",
  ipPort: "PSU-IP-Port",
  userAgent: "PSU-User-Agent",
  httpMethod: "PSU-Http-Method",
  deviceId: "PSU-Device-ID",
} as const satisfies Record<keyof Psu, string>;

export const ALL_PSU_FIELDS = [
  "ipAddress",
  "ipPort",
  "userAgent",
  "httpMethod",
  "deviceId",
] as const satisfies readonly (keyof Psu)[];

/** The PSU headers for `fields`, of those the caller gave. */
export function psuHeaders(psu: Psu | undefined, fields: readonly (keyof Psu)[]): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!psu) return headers;
  for (const field of fields) {
    const value = psu[field];
    if (value !== undefined) headers[PSU_HEADER[field]] = String(value);
  }
  return headers;
}

export interface VersionProfile {
  version: ApiVersion;
  /** v0.1 and v0.2 take the flat body of the first API; v0.3 nests bank details (ADR 6). */
  paymentBody: "flat" | "nested";
  /** PSU headers sent on GET payment and status; the provider dropped them in v0.3. */
  paymentReadPsu: readonly (keyof Psu)[];
  /** `cardPaymentMethod` (card and hybrid payments) exists from v0.3 on. */
  cardPayments: boolean;
  /** `Webhook-URL` on POST /auth exists from v0.3 on. */
  authWebhookUrl: boolean;
  /** Project settings, payment methods and refunds exist from v0.3 on (provider-api.md 11). */
  projectSettings: boolean;
  refunds: boolean;
  /** The bank shape: the v0.3 flags (`isBeta`, ...) are required only where they exist. */
  bank: z.ZodType<Bank>;
}

const PROFILES: Record<ApiVersion, VersionProfile> = {
  "v0.1": {
    version: "v0.1",
    paymentBody: "flat",
    paymentReadPsu: ["ipAddress"],
    cardPayments: false,
    authWebhookUrl: false,
    projectSettings: false,
    refunds: false,
    bank: legacyBank,
  },
  "v0.2": {
    version: "v0.2",
    // v0.2 accepts both bodies (ADR 6); the flat one is the one it shares with v0.1.
    paymentBody: "flat",
    paymentReadPsu: ["ipAddress", "ipPort", "userAgent", "deviceId"],
    cardPayments: false,
    authWebhookUrl: false,
    projectSettings: false,
    refunds: false,
    bank: legacyBank,
  },
  "v0.3": {
    version: "v0.3",
    paymentBody: "nested",
    paymentReadPsu: [],
    cardPayments: true,
    authWebhookUrl: true,
    projectSettings: true,
    refunds: true,
    bank,
  },
};

export function versionProfile(version: ApiVersion = "v0.3"): VersionProfile {
  return PROFILES[version];
}
