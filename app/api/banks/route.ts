import { z } from "zod";
import { listBanks } from "@/lib/checkout/banks";
import { json } from "@/lib/http/problem";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const query = z.object({ country: z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code like LT") });

export const GET = route({ query }, async ({ query, ctx }) =>
  json(await listBanks(query.country, ctx), 200, { "Cache-Control": "public, max-age=300" }),
);
