import { z } from "zod";
import { cancelCheckout } from "@/lib/checkout/cancel-checkout";
import { env } from "@/lib/env";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

export const POST = route({ params, bearer: () => env().merchantApiKey }, ({ params, ctx }) =>
  cancelCheckout(params.checkoutId, ctx),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
