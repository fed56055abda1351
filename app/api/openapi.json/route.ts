import { env } from "@/lib/env";
import { json } from "@/lib/http/problem";
import { openApiDocument } from "@/lib/http/openapi";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET() {
  return json(openApiDocument(env().appUrl));
}
