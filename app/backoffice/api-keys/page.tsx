import type { Metadata } from "next";
import { ApiKeysAdmin, type KeyRow } from "@/components/backoffice/ApiKeysAdmin";
import { requireStaff } from "@/components/backoffice/require-staff";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import styles from "@/components/backoffice/backoffice.module.css";
import { isActive, listApiKeys } from "@/lib/api-keys/keys";
import { listNotifySecrets } from "@/lib/api-keys/notify-secrets";
import { NotifySecretsAdmin, type SecretRow } from "@/components/backoffice/NotifySecretsAdmin";
import { appContext } from "@/lib/checkout/app-context";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "API keys and signing secrets", robots: { index: false, follow: false } };

/** Admins only: the keys the merchant's backend calls the checkouts API with. */
export default async function ApiKeysPage() {
  const member = await requireStaff("api_keys.manage");
  const now = new Date();
  const { db } = await appContext();
  const secrets: SecretRow[] = (await listNotifySecrets(db)).map((s) => ({
    id: s.id,
    prefix: s.prefix,
    createdAt: s.createdAt.toISOString(),
    expiresAt: s.expiresAt?.toISOString() ?? null,
    signing: !s.expiresAt || s.expiresAt > now,
  }));
  const keys: KeyRow[] = (await listApiKeys(db)).map((k) => ({
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    expiresAt: k.expiresAt?.toISOString() ?? null,
    status: k.revokedAt ? "revoked" : !isActive(k, now) ? "ended" : k.replacedBy ? "ending" : "active",
  }));
  return (
    <StaffFrame member={member}>
      <header className={styles.pageHeader}>
        <h1>API keys and signing secrets</h1>
        <p>
          Keys for your backend to call the checkouts API (<span className={styles.code}>Authorization: Bearer</span>).
          Each is shown once when it is made; we keep only its hash. Roll a key to replace it while the old one keeps
          working for a while; revoke one to stop it at once. MERCHANT_API_KEY from the settings, if set, works besides
          these with every scope. Times are in UTC.
        </p>
      </header>
      <ApiKeysAdmin keys={keys} />
      <NotifySecretsAdmin secrets={secrets} />
    </StaffFrame>
  );
}
