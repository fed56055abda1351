import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CheckoutDetail } from "@/components/backoffice/CheckoutDetail";
import { requireStaff } from "@/components/backoffice/require-staff";
import { StaffFrame } from "@/components/backoffice/StaffFrame";
import { appContext } from "@/lib/checkout/app-context";
import { checkoutDetailForStaff } from "@/lib/checkout/backoffice";

export const dynamic = "force-dynamic";

// A fixed title: the reference is shown only to a signed-in page, never in unchecked metadata.
export const metadata: Metadata = { title: "Checkout", robots: { index: false, follow: false } };

export default async function CheckoutDetailPage({ params }: { params: Promise<{ checkoutId: string }> }) {
  const member = await requireStaff("checkouts.view");
  const { checkoutId } = await params;
  if (!/^[\w-]{1,64}$/.test(checkoutId)) notFound();
  const detail = await checkoutDetailForStaff(checkoutId, await appContext());
  if (!detail) notFound();
  return (
    <StaffFrame member={member}>
      <CheckoutDetail initial={detail} />
    </StaffFrame>
  );
}
