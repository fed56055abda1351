import { listCheckoutsForStaff } from "@/lib/checkout/backoffice";
import { checkoutFilter } from "@/lib/checkout/backoffice-filter";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The back office's checkout list as JSON, for its filters in the browser (staff session required). */
export const GET = route({ staff: "checkouts.view", query: checkoutFilter }, ({ query, ctx }) =>
  listCheckoutsForStaff(query, ctx),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
