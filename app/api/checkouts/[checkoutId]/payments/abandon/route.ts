import { z } from "zod";
import { abandonPayment } from "@/lib/checkout/payments";
import { clientKey } from "@/lib/http/client-address";
import { enforce, limits } from "@/lib/http/rate-limit";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

// Anyone may call it (the payer's page does, on its way out): limited per address like a start.
export const POST = route({ params, ownPagesOnly: true }, async ({ params, req, ctx }) => {
  await enforce(ctx.db, `abandon:ip:${clientKey(req.headers)}`, limits().abandonsPerIp);
  return abandonPayment(params.checkoutId, ctx);
});

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
