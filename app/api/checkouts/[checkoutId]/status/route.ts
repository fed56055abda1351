import { z } from "zod";
import { json } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";
import { getCheckoutStatus } from "@/lib/checkout/checkout-status";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

// no-cache, not no-store: every read still goes to the server, and the landing page that polls
// it stays eligible for the back/forward cache (Back from the shop restores it at once).
export const GET = route({ params }, async ({ params, ctx }) =>
  json(await getCheckoutStatus(params.checkoutId, ctx), 200, { "Cache-Control": "private, no-cache" }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
