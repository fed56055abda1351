import type { SandboxContext } from "./context";
import { escapeHtml } from "./http";

/** The sandbox's console at `/`: what the provider has seen, for whoever is testing against it. */

function time(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
}

function table(caption: string, head: string[], rows: string[][]): string {
  if (rows.length === 0) return `<h2>${escapeHtml(caption)}</h2><p>None yet.</p>`;
  const th = head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  const body = rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("\n");
  return `<h2>${escapeHtml(caption)}</h2><table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

export function consolePage(ctx: SandboxContext): string {
  const payments = [...ctx.store.payments.values()].sort((a, b) => b.createdAt - a.createdAt);
  const paymentRows = payments.map((p) => [
    `<a href="/login/${escapeHtml(p.id)}"><code>${escapeHtml(p.id)}</code></a>`,
    `${escapeHtml(p.amount)} ${escapeHtml(p.currencyCode)}`,
    escapeHtml(p.description),
    `${escapeHtml(p.bankStatus)} / ${escapeHtml(p.statusGroup)}`,
    escapeHtml(p.bankId ?? ""),
    escapeHtml(time(p.createdAt)),
  ]);
  const deliveryRows = [...ctx.store.deliveries].reverse().map((d) => [
    escapeHtml(time(d.at)),
    `<code>${escapeHtml(d.paymentId)}</code>`,
    escapeHtml(d.url),
    String(d.attempt),
    escapeHtml(d.statusCode === null ? `no answer (${d.error ?? "error"})` : String(d.statusCode)),
    escapeHtml(d.nextAttemptAt === undefined ? "" : time(d.nextAttemptAt)),
  ]);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox provider console</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;margin:1.5rem;color:#1a1a1a}
table{border-collapse:collapse;width:100%;margin-bottom:1.5rem}
th,td{border-bottom:1px solid #d6d8dc;padding:.35rem .5rem;text-align:left;vertical-align:top}
code{font-size:.85em}
</style>
</head>
<body>
<main>
<h1>Sandbox provider console</h1>
<p>API base: <code>${escapeHtml(ctx.publicUrl())}/platform/v0.3</code>. Test credentials and banks are described in lib/sandbox/README.md.</p>
${table("Payments", ["Id", "Amount", "Description", "Status", "Bank", "Created"], paymentRows)}
${table("Webhook deliveries", ["Time", "Payment", "URL", "Attempt", "Answer", "Next attempt"], deliveryRows)}
</main>
</body>
</html>`;
}
