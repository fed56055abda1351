import { z } from "zod";

/**
 * Zod schemas of the provider's responses (provider-api.md section 4). Objects are not strict:
 * the provider may add fields at any time, and we must not break on them. Fields we rely on are
 * checked closely.
 */

export const paymentId = z.string().regex(/^[0-9a-f]{40}$/, "must be 40 lowercase hex characters");
export const statusGroup = z.enum(["started", "pending", "completed", "failed"]);
export type StatusGroup = z.infer<typeof statusGroup>;

const decimalAmount = z.union([z.string(), z.number()]).transform((v) => String(v));

export const errorEnvelope = z.object({
  error: z.object({
    code: z.number().int(),
    name: z.string().optional(),
    description: z.string().optional(),
  }),
  data: z.unknown().optional(),
});

export const bank = z.object({
  id: z.string().min(1),
  name: z.string(),
  officialName: z.string().nullable().optional(),
  countryCode: z.string().length(2),
  isSandbox: z.boolean(),
  imageUri: z.string().nullable().optional(),
  bic: z.string().nullable().optional(),
  isBeta: z.boolean(),
  isAccountLinkingSupported: z.boolean().optional(),
  hasSavingsBanks: z.boolean().optional(),
  isSavingsBank: z.boolean().optional(),
  scaApproaches: z
    .object({ AIS: z.array(z.string()).optional(), PIS: z.array(z.string()).optional(), AUTH: z.array(z.string()).optional() })
    .optional(),
});
export type Bank = z.infer<typeof bank>;

export const list = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

export const initiatePaymentResponse = z.object({
  id: paymentId,
  statusGroup,
  confirmLink: z.url({ protocol: /^https?$/ }).optional(),
  bankStatus: z.string().optional(),
  cardStatus: z.string().optional(),
  hybridStatus: z.string().optional(),
});
export type InitiatePaymentResponse = z.infer<typeof initiatePaymentResponse>;

const account = z.object({
  iban: z.string().optional(),
  currencyCode: z.string().optional(),
});

export const payment = z.object({
  id: paymentId,
  statusGroup,
  bankStatus: z.string().optional(),
  cardStatus: z.string().optional(),
  hybridStatus: z.string().optional(),
  amount: decimalAmount,
  currencyCode: z.string(),
  description: z.string().optional(),
  bankPaymentMethod: z
    .object({
      creditorName: z.string().optional(),
      endToEndId: z.string().optional(),
      creditorAccount: account.nullable().optional(),
      debtorAccount: account.nullable().optional(),
      bankId: z.string().nullable().optional(),
      paymentProduct: z.string().nullable().optional(),
      requestedExecutionDate: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});
export type Payment = z.infer<typeof payment>;

/** GET /pis/payment/{id}/status: note the key is `group`, not `statusGroup`. */
export const paymentStatus = z.object({
  group: statusGroup,
  bankStatus: z.string().optional(),
  cardStatus: z.string().optional(),
  hybridStatus: z.string().optional(),
  error: z.object({ code: z.array(z.number().int()) }).nullable().optional(),
});
export type PaymentStatus = z.infer<typeof paymentStatus>;
