import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckoutContext } from "@/lib/checkout/context";
import { refusal, testContext } from "@/lib/checkout/test-context";
import { createPaymentLink, createPaymentLinkInput } from "@/lib/payment-links/links";
import {
  EMPTY_LINK_FIELDS,
  formDataOf,
  issuesAsErrors,
  linkFieldErrors,
  linkFields,
  linkFieldsOf,
  toCreatePaymentLinkInput,
  type LinkFieldsInput,
} from "./payment-link-form";

/** What the server action gets when staff submit these values: through FormData, as the browser sends them. */
const submitted = (values: Partial<LinkFieldsInput>) =>
  linkFields.safeParse(linkFieldsOf(formDataOf({ ...EMPTY_LINK_FIELDS, ...values })));

const invoice: Partial<LinkFieldsInput> = {
  title: " Invoice payment ",
  amountKind: "payer",
  min: "5",
  max: "500,00",
  referencePrefix: "INV",
  payerFieldLabel: "Invoice number",
  endsAt: "2099-12-31T18:00",
  maxPayments: "3",
};

describe("the New payment link form", () => {
  it("asks the domain for a payer-chosen amount with decimal points, the end date in UTC, and nothing for empty fields", () => {
    const parsed = submitted(invoice);
    expect(parsed.success).toBe(true);
    const input = toCreatePaymentLinkInput(parsed.data!);
    expect(input).toEqual({
      title: "Invoice payment",
      description: undefined,
      currency: "EUR",
      payerAmount: { min: "5", max: "500.00", suggested: undefined },
      referencePrefix: "INV",
      payerField: { label: "Invoice number", required: true },
      endsAt: "2099-12-31T18:00:00Z",
      maxPayments: 3,
      returnUrl: undefined,
      notifyUrl: undefined,
    });
    expect(createPaymentLinkInput.safeParse(input).success).toBe(true);
  });

  it("sends only the amount kind chosen: a fixed amount drops a range typed before switching", () => {
    const input = toCreatePaymentLinkInput(submitted({ ...invoice, amountKind: "fixed", amount: "25,50" }).data!);
    expect(input.amount).toBe("25.50");
    expect(input.payerAmount).toBeUndefined();
  });

  it("keeps an unticked 'must fill in' as optional, and sends no payer field without a label", () => {
    expect(toCreatePaymentLinkInput(submitted({ ...invoice, payerFieldRequired: false }).data!).payerField).toEqual({
      label: "Invoice number",
      required: false,
    });
    expect(toCreatePaymentLinkInput(submitted({ ...invoice, payerFieldLabel: " " }).data!).payerField).toBeUndefined();
  });

  it("names the field of each of its own refusals, beside it and in one sentence", () => {
    const parsed = submitted({ amountKind: "payer", referencePrefix: "has space", maxPayments: "2.5", endsAt: "soon" });
    expect(parsed.success).toBe(false);
    const { fields, error } = linkFieldErrors(issuesAsErrors(parsed.error!.issues), "payer");
    expect(Object.keys(fields).sort()).toEqual(["endsAt", "max", "maxPayments", "min", "referencePrefix", "title"]);
    expect(fields.min).toBe("Enter the smallest amount the payer may choose.");
    expect(error).toMatch(/^The link was not made\. /);
    expect(error).toContain("Give the link a title.");
    expect(submitted({ amountKind: "fixed" }).error!.issues.map((i) => i.path.join("."))).toContain("amount");
  });
});

describe("the domain's refusals of a form", () => {
  let ctx: CheckoutContext;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ ctx, close } = await testContext("pglite", {}));
    ctx = { ...ctx, config: { ...ctx.config, allowPrivateUrls: false } };
  });
  afterAll(() => close());

  const refusedFields = async (values: Partial<LinkFieldsInput>) => {
    const parsed = submitted(values);
    expect(parsed.success).toBe(true);
    const err = await refusal(createPaymentLink(toCreatePaymentLinkInput(parsed.data!), ctx, "staff:test"));
    return linkFieldErrors(err.errors ?? [], values.amountKind ?? "fixed");
  };

  it("land on the fields staff typed them in", async () => {
    expect((await refusedFields({ ...invoice, min: "10", max: "5" })).fields).toEqual({
      max: "Maximum must not be below min.",
    });
    expect((await refusedFields({ ...invoice, suggested: "600" })).fields).toEqual({
      suggested: "Suggested amount must be between min and max.",
    });
    expect((await refusedFields({ ...invoice, amountKind: "fixed", amount: "1.001" })).fields).toEqual({
      amount: "Amount EUR allows at most 2 decimal places.",
    });
    expect((await refusedFields({ ...invoice, endsAt: "2001-01-01T00:00" })).fields).toEqual({
      endsAt: "End date must be in the future.",
    });
    expect((await refusedFields({ ...invoice, returnUrl: "http://shop.example/" })).fields).toEqual({
      returnUrl: "Return URL must use https.",
    });
    const notify = await refusedFields({ ...invoice, notifyUrl: "https://10.0.0.1/" });
    expect(notify.fields.notifyUrl).toMatch(/^Notify URL must not point at localhost or a private network/);
  });

  it("and a form that passes makes the link it says", async () => {
    const link = await createPaymentLink(toCreatePaymentLinkInput(submitted(invoice).data!), ctx, "staff:test");
    expect(link).toMatchObject({
      title: "Invoice payment",
      amount: null,
      payerAmount: { min: "5.00", max: "500.00", suggested: null },
      payerField: { label: "Invoice number", required: true },
      endsAt: "2099-12-31T18:00:00.000Z",
      maxPayments: 3,
      status: "active",
    });
  });
});
