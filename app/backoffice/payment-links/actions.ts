"use server";

import { z } from "zod";
import type { ActionResult } from "@/components/backoffice/action-state";
import {
  issuesAsErrors,
  linkFieldErrors,
  linkFields,
  linkFieldsOf,
  toCreatePaymentLinkInput,
  type LinkFieldErrors,
} from "@/components/backoffice/payment-link-form";
import { auditActorOf, requireStaff } from "@/components/backoffice/require-staff";
import { recordAudit } from "@/lib/audit/audit";
import { appContext } from "@/lib/checkout/app-context";
import { CheckoutError } from "@/lib/checkout/errors";
import { createPaymentLink, deactivatePaymentLink } from "@/lib/payment-links/links";

/*
 * Staff make and deactivate payment links (support and up). As every back-office action, each
 * checks the session and the role itself and writes one audit row of what it did.
 */

const NOT_A_FORM = "This form could not be read. Reload the page and try again.";

/** Made: the new link's id, for its page. Refused: the sentence, and each field's own. */
export type CreateLinkResult =
  { ok: true; message: string; id: string } | { ok: false; error: string; fields?: LinkFieldErrors };

export async function createPaymentLinkAction(
  _previous: CreateLinkResult | null,
  formData: FormData,
): Promise<CreateLinkResult> {
  const member = await requireStaff("payment_links.manage");
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const given = linkFieldsOf(formData);
  const amountKind = String(given.amountKind);
  const parsed = linkFields.safeParse(given);
  if (!parsed.success) return { ok: false, ...linkFieldErrors(issuesAsErrors(parsed.error.issues), amountKind) };
  const ctx = await appContext();
  const { actor, clientAddress } = await auditActorOf(member);
  try {
    const link = await createPaymentLink(toCreatePaymentLinkInput(parsed.data), ctx, `staff:${member.id}`);
    await recordAudit(ctx.db, {
      actor,
      action: "payment_link.created",
      target: { kind: "payment_link", id: link.id },
      outcome: "succeeded",
      clientAddress,
    });
    return { ok: true, message: `The payment link “${link.title}” is made.`, id: link.id };
  } catch (err) {
    const known = err instanceof CheckoutError;
    if (!known) console.error("backoffice: payment link failed", err instanceof Error ? err.message : err);
    await recordAudit(ctx.db, {
      actor,
      action: "payment_link.created",
      outcome: known ? "refused" : "failed",
      detail: { reason: known ? err.code : "internal_error" },
      clientAddress,
    });
    if (known && err.errors?.length) return { ok: false, ...linkFieldErrors(err.errors, amountKind) };
    return {
      ok: false,
      error: known
        ? [err.title, err.detail].filter(Boolean).join(" ")
        : "The link could not be made because of an unexpected error. Try again.",
    };
  }
}

const linkId = z.string().regex(/^plink_[A-Za-z0-9_-]{16}$/);

/** The link takes no more payments; checkouts already made from it stay payable until they end. */
export async function deactivatePaymentLinkAction(
  _previous: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  const member = await requireStaff("payment_links.manage");
  if (!(formData instanceof FormData)) return { ok: false, error: NOT_A_FORM };
  const id = linkId.safeParse(formData.get("linkId"));
  if (!id.success) return { ok: false, error: NOT_A_FORM };
  const ctx = await appContext();
  const { actor, clientAddress } = await auditActorOf(member);
  try {
    await deactivatePaymentLink(ctx, id.data);
  } catch (err) {
    if (!(err instanceof CheckoutError)) throw err;
    await recordAudit(ctx.db, {
      actor,
      action: "payment_link.deactivated",
      target: { kind: "payment_link", id: id.data },
      outcome: "refused",
      detail: { reason: err.code },
      clientAddress,
    });
    return { ok: false, error: "This payment link was not found. Reload the page." };
  }
  await recordAudit(ctx.db, {
    actor,
    action: "payment_link.deactivated",
    target: { kind: "payment_link", id: id.data },
    outcome: "succeeded",
    clientAddress,
  });
  return { ok: true, message: "The link is deactivated: it takes no more payments." };
}
