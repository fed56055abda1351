"use client";

import { useEffect, useState } from "react";

let live = false;

/**
 * What the payer changed on the server-rendered page before its code ran (seconds on a slow
 * phone). When the page comes alive, React and react-hook-form hold their own state for each
 * field, and the next render puts the field back to it: the payer's choice would be undone. So it
 * is read in the first render, before that, and handed to `apply` once the page is live. A field
 * counts only when it differs from what the server rendered, which the DOM keeps as its default.
 */
export function useChangedBeforeLive(selector: string, apply: (value: string) => void) {
  // On the server there is no document, and nothing to read.
  const [early] = useState(() =>
    live || typeof document === "undefined" ? undefined : changed(document.querySelector(selector)),
  );
  useEffect(() => {
    live = true;
    if (early !== undefined) apply(early);
    // Once, when the page comes alive: later renders must not apply it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

function changed(el: Element | null): string | undefined {
  if (el instanceof HTMLSelectElement) {
    return [...el.options].some((o) => o.selected !== o.defaultSelected) ? el.value : undefined;
  }
  if (el instanceof HTMLInputElement) {
    const edited = el.type === "radio" ? !el.defaultChecked : el.value !== el.defaultValue;
    return edited ? el.value : undefined;
  }
}
