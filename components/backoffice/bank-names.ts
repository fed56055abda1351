import "server-only";
import { appContext } from "@/lib/checkout/app-context";
import { withinMs } from "@/lib/checkout/poll";
import { findBank } from "@/lib/checkout/project";

const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Display names of bank ids ("Swedbank (LT)"), from the provider's cached bank list. A slow or
 * failing provider must not block the back office: the id itself is shown instead.
 */
export async function bankNames(ids: Iterable<string | null>): Promise<Map<string, string>> {
  const unique = [...new Set([...ids].filter((id): id is string => !!id))];
  const names = new Map<string, string>();
  if (unique.length === 0) return names;
  const ctx = await appContext();
  await Promise.all(
    unique.map(async (id) => {
      const bank = await withinMs(findBank(ctx, id).catch(() => null), LOOKUP_TIMEOUT_MS);
      names.set(id, bank ? `${bank.name} (${bank.countryCode})` : id);
    }),
  );
  return names;
}
