import { z } from "zod";
import { getCheckoutDetail } from "@/lib/checkout/checkouts";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

export const GET = route({ params, apiKey: "checkouts:read" }, ({ params, ctx }) =>
  getCheckoutDetail(params.checkoutId, ctx),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
