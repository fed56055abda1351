import { otherMethods, route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Liveness: this process answers. Deliberately nothing about the database or the provider, which
 * /api/health/ready reports: an outage of either must not make the orchestrator restart every
 * instance in a loop.
 */
export const GET = route({}, async () => ({ status: "ok" }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
