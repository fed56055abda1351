"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { useForm, useWatch } from "react-hook-form";
import { createPaymentLinkAction } from "@/app/backoffice/payment-links/actions";
import { SUPPORTED_CURRENCIES } from "@/lib/checkout/money";
import {
  EMPTY_LINK_FIELDS,
  LINK_FIELDS,
  formDataOf,
  linkFields,
  type LinkField,
  type LinkFieldsInput,
  type LinkFieldsOutput,
} from "./payment-link-form";
import styles from "./backoffice.module.css";
import own from "./payment-links.module.css";

const FORM = "New payment link";

/**
 * New payment link (support and up): react-hook-form checks the fields with the rules the server
 * action parses with; the action makes the link, or answers each field's error, shown beside it.
 * Made, the list below is read again and the result links to the new link's page.
 */
export function PaymentLinkForm() {
  const router = useRouter();
  const [made, setMade] = useState<{ message: string; id: string } | null>(null);
  const form = useForm<LinkFieldsInput, unknown, LinkFieldsOutput>({
    resolver: zodResolver(linkFields),
    defaultValues: EMPTY_LINK_FIELDS,
  });
  const { errors } = form.formState;
  const amountKind = useWatch({ control: form.control, name: "amountKind" });

  const create = useMutation({
    mutationFn: (values: LinkFieldsInput) => createPaymentLinkAction(null, formDataOf(values)),
    onMutate: () => setMade(null),
    onSuccess: (answer) => {
      if (answer.ok) {
        setMade({ message: answer.message, id: answer.id });
        form.reset(EMPTY_LINK_FIELDS);
        router.refresh();
        return;
      }
      const named = LINK_FIELDS.filter((f) => answer.fields?.[f]);
      for (const [i, field] of named.entries())
        form.setError(field, { type: "server", message: answer.fields![field] }, { shouldFocus: i === 0 });
      form.setError("root.server", { type: "server", message: answer.error });
    },
    onError: () =>
      form.setError("root.server", {
        type: "server",
        message: "The link could not be sent. Check the list below before trying again.",
      }),
  });
  const submit = form.handleSubmit(() => {
    // The raw values go to the server action, which parses them itself.
    if (!create.isPending) create.mutate(form.getValues());
  });

  const error =
    errors.root?.server?.message ??
    (Object.keys(errors).length > 0 ? "The link was not made: check the fields marked below." : undefined);

  /** A control's id, registration and its hint and error, named for assistive technology. */
  const control = (name: Exclude<LinkField, "payerFieldRequired" | "amountKind">, hint?: boolean) => ({
    id: `link-${name}`,
    ...form.register(name),
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby":
      [hint && `link-${name}-hint`, errors[name] && `link-${name}-error`].filter(Boolean).join(" ") || undefined,
  });
  const fieldError = (name: LinkField) =>
    errors[name]?.message ? (
      <p id={`link-${name}-error`} className="field-error">
        {errors[name]!.message}
      </p>
    ) : null;
  const field = (
    name: Exclude<LinkField, "payerFieldRequired" | "amountKind">,
    label: ReactNode,
    input: ReactNode,
    hint?: ReactNode,
  ) => (
    <div className="field">
      <label htmlFor={`link-${name}`}>{label}</label>
      {hint && (
        <p className="hint" id={`link-${name}-hint`}>
          {hint}
        </p>
      )}
      {input}
      {fieldError(name)}
    </div>
  );
  const optional = <span className="muted">(optional)</span>;
  const money = (name: "amount" | "min" | "max" | "suggested", label: ReactNode) =>
    field(name, label, <input {...control(name)} type="text" inputMode="decimal" autoComplete="off" />);

  return (
    <section className="card" aria-labelledby="new-link-heading">
      <h2 id="new-link-heading">{FORM}</h2>
      <form onSubmit={(event) => void submit(event)} className={own.form} noValidate>
        {field(
          "title",
          "Title",
          <input {...control("title", true)} type="text" maxLength={140} autoComplete="off" />,
          "What is paid for: the payer's page shows it as its heading.",
        )}
        {field(
          "description",
          <>Description {optional}</>,
          <textarea {...control("description")} rows={3} maxLength={1000} />,
        )}
        {field(
          "currency",
          "Currency",
          <select {...control("currency")}>
            {SUPPORTED_CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>,
        )}
        <fieldset>
          <legend>Amount</legend>
          <div className={own.choices}>
            <label className={styles.checkLine}>
              <input type="radio" value="fixed" {...form.register("amountKind")} /> A fixed amount
            </label>
            <label className={styles.checkLine}>
              <input type="radio" value="payer" {...form.register("amountKind")} /> The payer chooses
            </label>
          </div>
          <div className={own.amounts}>
            {amountKind === "payer" ? (
              <>
                {money("min", "Minimum")}
                {money("max", "Maximum")}
                {money("suggested", <>Suggested {optional}</>)}
              </>
            ) : (
              money("amount", "Amount")
            )}
          </div>
        </fieldset>
        {field(
          "referencePrefix",
          "Reference prefix",
          <input {...control("referencePrefix", true)} type="text" maxLength={20} autoComplete="off" />,
          "Each payment's reference is this, a dash and 10 random characters: INVOICE-7KQ2M9XW4P.",
        )}
        {field(
          "endsAt",
          <>End date {optional}</>,
          <input {...control("endsAt", true)} type="datetime-local" />,
          "In UTC. After it, the link takes no payments.",
        )}
        {field(
          "maxPayments",
          <>Most payments {optional}</>,
          <input {...control("maxPayments", true)} type="text" inputMode="numeric" autoComplete="off" />,
          "The link takes no more paid payments than this, ever.",
        )}
        {field(
          "payerFieldLabel",
          <>Payer field label {optional}</>,
          <input {...control("payerFieldLabel", true)} type="text" maxLength={40} autoComplete="off" />,
          "One thing the payer types in, such as “Invoice number”; you see it with each payment.",
        )}
        <label className={styles.checkLine}>
          <input type="checkbox" {...form.register("payerFieldRequired")} /> The payer must fill in that field
        </label>
        {field(
          "returnUrl",
          <>Return URL {optional}</>,
          <input {...control("returnUrl", true)} type="text" inputMode="url" autoComplete="off" />,
          "Where the payer goes after paying. Left empty: back to the link.",
        )}
        {field(
          "notifyUrl",
          <>Notify URL {optional}</>,
          <input {...control("notifyUrl", true)} type="text" inputMode="url" autoComplete="off" />,
          "Where your backend is told of each payment (see the README's Notifications).",
        )}
        <div role="alert" aria-label={`${FORM} error`} className={styles.slot}>
          {error && <p className="alert alert-error">{error}</p>}
        </div>
        <div>
          <button type="submit" className="btn btn-primary" aria-disabled={create.isPending || undefined}>
            Make payment link
          </button>
        </div>
        <div role="status" aria-label={`${FORM} result`} className={styles.slot}>
          {made && (
            <p className="alert alert-success">
              {made.message} <Link href={`/backoffice/payment-links/${made.id}`}>Open its page</Link>
            </p>
          )}
        </div>
      </form>
    </section>
  );
}
