import { unknownAddress } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Every address under /api that no route file has, whatever the method: a merchant's typo gets
 * problem+json with the API's headers, not Next's HTML not-found page.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = unknownAddress();
