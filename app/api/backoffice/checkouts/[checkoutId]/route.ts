import { z } from "zod";
import { checkoutDetailForStaff } from "@/lib/checkout/backoffice";
import { checkoutNotFound } from "@/lib/checkout/errors";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ checkoutId: z.string().regex(/^[\w-]{1,64}$/) });

/** One checkout with everything staff see on its page, for the page's refresh (staff session required). */
export const GET = route({ staff: "checkouts.view", params }, async ({ params, ctx }) => {
  const detail = await checkoutDetailForStaff(params.checkoutId, ctx);
  if (!detail) throw checkoutNotFound();
  return detail;
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
