import { env } from "@/lib/env";
import { json } from "@/lib/http/problem";
import { otherMethods, route } from "@/lib/http/route";
import { openApiDocument } from "@/lib/http/openapi";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({}, async () => json(openApiDocument(env().appUrl)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
