import { z } from "zod";
import { getCheckoutStatus } from "@/lib/checkout/checkouts";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

export const GET = route({ params }, ({ params, ctx }) => getCheckoutStatus(params.checkoutId, ctx));
