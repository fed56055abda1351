import type { ReactNode } from "react";

/**
 * A button that works before the page's code has run, or without it (ADR 21): it submits a small
 * form of its own to our server, and once the page is live it does `onPress` instead. Without a
 * form (in the merchant's frame) it is a plain button.
 */
export function FormButton({
  form,
  fields,
  onPress,
  children,
  ...button
}: {
  form: { method: "get" | "post"; action: string } | undefined;
  fields: Record<string, string>;
  onPress(): void;
  id?: string;
  className: string;
  disabled: boolean;
  "aria-describedby"?: string;
  children: ReactNode;
}) {
  const press = (
    <button
      type={form ? "submit" : "button"}
      {...button}
      onClick={(event) => {
        event.preventDefault();
        onPress();
      }}
    >
      {children}
    </button>
  );
  if (!form) return press;
  return (
    <form className="inline-form" method={form.method} action={form.action}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {press}
    </form>
  );
}
