import { z } from "zod";
import { banksAnswer } from "@/lib/checkout/banks";
import { cacheable } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const query = z.object({ country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code like LT") });

// Every payer of a country gets the same list: browsers and CDNs keep it 5 minutes (the server's own
// cache holds it 10), and serve the old one for 10 more while they fetch the new one.
export const GET = route({ query }, async ({ req, query, ctx }) =>
  cacheable(
    req,
    await banksAnswer(query.country, ctx),
    "public, max-age=300, s-maxage=300, stale-while-revalidate=600",
  ),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
