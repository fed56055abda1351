"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import type { ActionResult } from "./action-state";
import styles from "./backoffice.module.css";

/**
 * A secret shown once (a set-password link, an API key, a signing secret): readable, selected on
 * focus, and copied with one button whose outcome is announced.
 */
export function ShownOnce({ label, value, copy = "Copy" }: { label: string; value: string; copy?: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} className={styles.code} />
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}
      >
        {copy}
      </button>
      <span role="status">{copied ? "Copied." : ""}</span>
    </div>
  );
}

/** After a change that worked, the page's server data is read again (a list of people or keys). */
export function useRefreshOn(outcome: ActionResult | null) {
  const router = useRouter();
  useEffect(() => {
    if (outcome?.ok) router.refresh();
  }, [outcome, router]);
}
