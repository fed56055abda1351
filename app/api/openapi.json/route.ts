import { env } from "@/lib/env";
import { json } from "@/lib/http/problem";
import { route } from "@/lib/http/route";
import { openApiDocument } from "@/lib/http/openapi";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({}, async () => json(openApiDocument(env().appUrl)));
