import { sql } from "drizzle-orm";
import { appContext } from "@/lib/checkout/app-context";
import { route } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Also the first thing `npm start`'s callers hit, which starts the background worker.
export const GET = route({}, async () => {
  const { db } = await appContext();
  await db.execute(sql`select 1`);
  return { status: "ok", database: "reachable" };
});
