"use client";

import { useState } from "react";
import type { BankView } from "@/lib/checkout/contract";

function isHttpUrl(url: string | null): url is string {
  return url !== null && /^https?:\/\//i.test(url);
}

export function BankLogo({ bank }: { bank: BankView }) {
  const [broken, setBroken] = useState(false);
  if (!isHttpUrl(bank.logoUrl) || broken) {
    return (
      <span className="bank-logo bank-logo-fallback" aria-hidden="true">
        {bank.name.slice(0, 1).toUpperCase()}
      </span>
    );
  }
  return (
    // eslint-disable-next-line @next/next/no-img-element -- a remote logo on the provider's origin; the name sits beside it
    <img
      className="bank-logo"
      src={bank.logoUrl}
      alt=""
      width={32}
      height={32}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
}

/** No bank to show: says why, and offers to let the provider's page do the choosing. */
export function EmptyState(p: {
  title: string;
  hint: string;
  useHosted: string;
  onUseHosted?: () => void;
  announce?: boolean;
}) {
  return (
    <div className="empty-state" role={p.announce ? "status" : undefined} id="bank-picker-status" tabIndex={-1}>
      <p>
        <strong>{p.title}</strong>
      </p>
      <p className="muted small">{p.hint}</p>
      {p.onUseHosted && (
        <button type="button" className="btn btn-secondary" onClick={p.onUseHosted}>
          {p.useHosted}
        </button>
      )}
    </div>
  );
}
