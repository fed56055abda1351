import { z } from "zod";
import { otherMethods, route } from "@/lib/http/route";
import { requirePaymentLink } from "@/lib/payment-links/links";
import { qrPng, qrSvg } from "@/lib/payment-links/qr";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ linkId: z.string().max(64) });
const query = z.object({ format: z.enum(["svg", "png"]).default("svg") });

/**
 * A link's QR code as a file to download, for an invoice or a counter (staff session required;
 * the merchant API has its own). Unknown link: 404.
 */
export const GET = route({ staff: "payment_links.view", params, query }, async ({ params, query, ctx }) => {
  const link = await requirePaymentLink(ctx, params.linkId);
  const body = query.format === "png" ? new Uint8Array(await qrPng(link.url)) : await qrSvg(link.url);
  return new Response(body, {
    headers: {
      "Content-Type": query.format === "png" ? "image/png" : "image/svg+xml",
      "Content-Disposition": `attachment; filename="payment-link-${link.slug}.${query.format}"`,
      "Cache-Control": "private, no-store",
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
