import { z } from "zod";
import type { CreatePaymentLinkInput } from "@/lib/payment-links/links";

/**
 * The "New payment link" form: what staff type, checked the same way in the browser
 * (react-hook-form's resolver) and in the server action, and turned into the domain's
 * createPaymentLinkInput. The domain stays the authority on amounts, ranges and URLs; its field
 * errors come back here named by its paths and are shown next to these fields.
 */

export const LINK_FIELDS = [
  "title",
  "description",
  "currency",
  "amountKind",
  "amount",
  "min",
  "max",
  "suggested",
  "referencePrefix",
  "endsAt",
  "maxPayments",
  "payerFieldLabel",
  "payerFieldRequired",
  "returnUrl",
  "notifyUrl",
] as const;
export type LinkField = (typeof LINK_FIELDS)[number];

export const FIELD_LABELS: Record<LinkField, string> = {
  title: "Title",
  description: "Description",
  currency: "Currency",
  amountKind: "Amount",
  amount: "Amount",
  min: "Minimum",
  max: "Maximum",
  suggested: "Suggested amount",
  referencePrefix: "Reference prefix",
  endsAt: "End date",
  maxPayments: "Most payments",
  payerFieldLabel: "Payer field label",
  payerFieldRequired: "Payer must fill it in",
  returnUrl: "Return URL",
  notifyUrl: "Notify URL",
};

// Staff may type a decimal comma ("5,00"); the domain takes a point.
const money = z
  .string()
  .trim()
  .transform((v) => v.replace(",", "."))
  .pipe(z.string().regex(/^(\d+(\.\d+)?)?$/, "Enter the amount as a number, like 12.50"));

const text = z.string().trim();

export const linkFields = z
  .object({
    title: text.min(1, "Give the link a title").max(140, "Keep the title under 140 characters"),
    description: text.max(1000, "Keep the description under 1000 characters"),
    currency: z.string(),
    amountKind: z.enum(["fixed", "payer"], { error: "Choose a fixed amount or let the payer choose" }),
    amount: money,
    min: money,
    max: money,
    suggested: money,
    referencePrefix: text.regex(/^[A-Za-z0-9_-]{1,20}$/, "Use 1 to 20 letters, digits, - or _, like INVOICE"),
    // A datetime-local value, read as UTC like every time in the back office.
    endsAt: text.regex(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?)?$/, "Enter a date and time, like 2030-12-31T18:00"),
    maxPayments: text.regex(/^\d*$/, "Enter a whole number, like 100"),
    payerFieldLabel: text.max(40, "Keep the label under 40 characters"),
    payerFieldRequired: z.boolean(),
    returnUrl: text,
    notifyUrl: text,
  })
  .superRefine((v, ctx) => {
    const missing = (path: LinkField, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (v.amountKind === "fixed" && v.amount === "") missing("amount", "Enter the amount");
    if (v.amountKind === "payer") {
      if (v.min === "") missing("min", "Enter the smallest amount the payer may choose");
      if (v.max === "") missing("max", "Enter the largest amount the payer may choose");
    }
  });

export type LinkFieldsInput = z.input<typeof linkFields>;
export type LinkFieldsOutput = z.output<typeof linkFields>;

export const EMPTY_LINK_FIELDS: LinkFieldsInput = {
  title: "",
  description: "",
  currency: "EUR",
  amountKind: "fixed",
  amount: "",
  min: "",
  max: "",
  suggested: "",
  referencePrefix: "",
  endsAt: "",
  maxPayments: "",
  payerFieldLabel: "",
  payerFieldRequired: true,
  returnUrl: "",
  notifyUrl: "",
};

/** The form's fields as the server action receives them (a FormData of strings; the checkbox "true"). */
export function linkFieldsOf(form: FormData): Record<LinkField, unknown> {
  const value = (name: LinkField) => {
    const v = form.get(name);
    return typeof v === "string" ? v : undefined;
  };
  const fields = Object.fromEntries(LINK_FIELDS.map((name) => [name, value(name) ?? ""])) as Record<LinkField, unknown>;
  fields.payerFieldRequired = value("payerFieldRequired") === "true";
  return fields;
}

/** The form's values as a FormData, for the server action (the proxy takes only multipart action bodies). */
export function formDataOf(values: LinkFieldsInput): FormData {
  const data = new FormData();
  for (const name of LINK_FIELDS) data.set(name, String(values[name]));
  return data;
}

const optional = (v: string) => (v === "" ? undefined : v);

/** What the domain is asked to make: only the amount kind chosen, and nothing for an empty field. */
export function toCreatePaymentLinkInput(v: LinkFieldsOutput): CreatePaymentLinkInput {
  return {
    title: v.title,
    description: optional(v.description),
    currency: v.currency,
    ...(v.amountKind === "fixed"
      ? { amount: v.amount }
      : { payerAmount: { min: v.min, max: v.max, suggested: optional(v.suggested) } }),
    referencePrefix: v.referencePrefix,
    payerField: v.payerFieldLabel ? { label: v.payerFieldLabel, required: v.payerFieldRequired } : undefined,
    endsAt: v.endsAt ? `${v.endsAt.length === 16 ? `${v.endsAt}:00` : v.endsAt}Z` : undefined,
    maxPayments: v.maxPayments ? Number(v.maxPayments) : undefined,
    returnUrl: optional(v.returnUrl),
    notifyUrl: optional(v.notifyUrl),
  };
}

/** The form field a domain error's path names ("payerAmount.max" is the Maximum field). */
export function fieldOfPath(path: string, amountKind: string): LinkField | undefined {
  if (path === "amount" || path === "payerAmount") return amountKind === "payer" ? "min" : "amount";
  if (path.startsWith("payerAmount.")) {
    const part = path.slice("payerAmount.".length);
    return part === "min" || part === "max" || part === "suggested" ? part : undefined;
  }
  if (path.startsWith("payerField")) return "payerFieldLabel";
  return (LINK_FIELDS as readonly string[]).includes(path) ? (path as LinkField) : undefined;
}

export type LinkFieldErrors = Partial<Record<LinkField, string>>;

/** A field's error: the form's own are sentences already, the domain's fragments after the field's name. */
type FieldProblem = { path: string; message: string; sentence?: boolean };

const sentence = (field: LinkField | undefined, e: FieldProblem) => {
  const words = e.message.replace(/\.$/, "");
  return e.sentence ? `${words}.` : `${field ? FIELD_LABELS[field] : e.path} ${words}.`;
};

/**
 * A refusal's field errors as sentences beside the fields they name; any the form has no field for
 * are said in the form's error region with the rest.
 */
export function linkFieldErrors(
  errors: FieldProblem[],
  amountKind: string,
): { fields: LinkFieldErrors; error: string } {
  const fields: LinkFieldErrors = {};
  for (const e of errors) {
    const field = fieldOfPath(e.path, amountKind);
    if (field && !fields[field]) fields[field] = sentence(field, e);
  }
  const said = errors.map((e) => sentence(fieldOfPath(e.path, amountKind), e));
  return { fields, error: `The link was not made. ${[...new Set(said)].join(" ")}` };
}

/** The zod issues of the form's own check, as the same field errors. */
export function issuesAsErrors(issues: z.core.$ZodIssue[]): FieldProblem[] {
  return issues.map((i) => ({ path: i.path.join("."), message: i.message, sentence: true }));
}
