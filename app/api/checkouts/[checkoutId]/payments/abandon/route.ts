import { z } from "zod";
import { abandonPayment } from "@/lib/checkout/payments";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().max(64) });

export const POST = route({ params }, ({ params, ctx }) => abandonPayment(params.checkoutId, ctx));
