import { listAudit } from "@/lib/audit/audit";
import { auditCsv } from "@/lib/audit/csv";
import { activityQuery, toAuditFilter } from "@/lib/audit/filter";
import { otherMethods, route } from "@/lib/http/route";

/** The Activity page's rows as CSV, newest first, with the same filters (admins only). */
export const GET = route({ staff: "audit.view", query: activityQuery }, async ({ query, ctx }) => {
  const rows = await listAudit(ctx.db, { ...toAuditFilter(query), limit: 5000 });
  return new Response(auditCsv(rows), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="activity.csv"',
      "Cache-Control": "no-store",
    },
  });
});

export const { PUT, POST, PATCH, DELETE, OPTIONS } = otherMethods("GET");
