import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route({}, async () => {
  const db = await getDb();
  await db.execute(sql`select 1`);
  return { status: "ok", database: "reachable" };
});
