import { z } from "zod";
import { CheckoutError } from "@/lib/checkout/errors";
import { otherMethods, route } from "@/lib/http/route";
import { getPaymentLink, isSlug } from "@/lib/payment-links/links";
import { qrPng, qrSvg } from "@/lib/payment-links/qr";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = z.object({ slug: z.string().max(64) });
const query = z.object({ format: z.enum(["svg", "png"]).default("svg"), download: z.literal("1").optional() });

/**
 * A link's address as a QR code (SVG or PNG), for a counter or an invoice. Public like the link
 * itself: the code holds nothing the address does not.
 */
export const GET = route({ params, query }, async ({ params, query, ctx }) => {
  const link = isSlug(params.slug) ? await getPaymentLink(ctx, params.slug) : null;
  if (!link || link.slug !== params.slug) throw new CheckoutError("payment_link_not_found");
  const body = query.format === "png" ? new Uint8Array(await qrPng(link.url)) : await qrSvg(link.url);
  return new Response(body, {
    headers: {
      "Content-Type": query.format === "png" ? "image/png" : "image/svg+xml",
      "Cache-Control": "public, max-age=3600",
      ...(query.download && {
        "Content-Disposition": `attachment; filename="payment-link-${link.slug}.${query.format}"`,
      }),
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
