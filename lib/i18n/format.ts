/**
 * The part of the i18n module that client components may import: no catalogue (a client island
 * receives the few messages it shows as props, in one language), only types and `format`.
 */
import type { MessageId, Messages } from "./messages/en";

export type { MessageId, Messages };

/** The messages whose id starts with one of the prefixes: what a client island receives. */
export type MessagesFor<P extends string> = { readonly [K in Extract<MessageId, `${P}${string}`>]: string };

/** Fills `{name}` placeholders; an unknown name is left as it is, so a mistake stays visible. */
export function format(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * Splits a template into text and placeholder parts, for messages that embed elements (links):
 * `parts("I agree to the {terms}")` -> ["I agree to the ", {slot: "terms"}].
 */
export function templateParts(template: string): (string | { slot: string })[] {
  const out: (string | { slot: string })[] = [];
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    const at = m.index ?? 0;
    if (at > last) out.push(template.slice(last, at));
    out.push({ slot: m[1] as string });
    last = at + m[0].length;
  }
  if (last < template.length) out.push(template.slice(last));
  return out;
}
