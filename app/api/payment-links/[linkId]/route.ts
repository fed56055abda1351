import { z } from "zod";
import { otherMethods, route } from "@/lib/http/route";
import { requirePaymentLink } from "@/lib/payment-links/links";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ linkId: z.string().max(64) });

export const GET = route({ params, apiKey: "payment_links:read" }, ({ params, ctx }) =>
  requirePaymentLink(ctx, params.linkId),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
