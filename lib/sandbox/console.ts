import type { IncomingMessage, ServerResponse } from "node:http";
import type { SandboxContext } from "./context";
import { advanceClock, forcePaymentStatus, resetSandbox } from "./control";
import { FAULT_MODES, parseFault } from "./faults";
import { ApiError, PageError, escapeHtml, readForm, redirect303 } from "./http";
import { setRefundStatus } from "./lifecycle";
import { projectById } from "./projects";
import { STATUS_CODES, STATUS_GROUPS, isStatusCode } from "./statuses";
import type { StatusGroup, StatusKind } from "./store";

/**
 * The sandbox's console at `/`: payments with their status history, refunds, webhook deliveries,
 * and the levers of the control API as plain forms (force a status, fail a refund, inject a fault,
 * move the clock, reset), for demos and for whoever tests against the sandbox.
 */

const SHOWN = 100;

function time(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
}

function table(id: string, caption: string, head: string[], rows: string[][]): string {
  if (rows.length === 0) return `<h2 id="${id}">${escapeHtml(caption)}</h2><p>None yet.</p>`;
  const th = head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  const body = rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("\n");
  return `<h2 id="${id}">${escapeHtml(caption)}</h2><div class="scroll"><table aria-labelledby="${id}"><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

const KIND_LABELS: Readonly<Record<StatusKind, string>> = {
  bank: "bankStatus",
  card: "cardStatus",
  hybrid: "hybridStatus",
};

function forceForm(paymentId: string): string {
  const groups = (Object.keys(STATUS_CODES) as StatusKind[])
    .map(
      (kind) =>
        `<optgroup label="${KIND_LABELS[kind]}">${STATUS_CODES[kind].map((code) => `<option value="${kind}:${code}">${code}</option>`).join("")}</optgroup>`,
    )
    .join("");
  const id = `force-${paymentId}`;
  return `<form method="post" action="/console/payments/${escapeHtml(paymentId)}/status" class="inline">
<label for="${id}" class="sr-only">New status of payment ${escapeHtml(paymentId)}</label><select id="${id}" name="status">${groups}</select>
<button type="submit">Force</button></form>`;
}

function refundActions(id: number): string {
  return STATUS_GROUPS.filter(
    (g): g is Exclude<StatusGroup, "started" | "pending"> => g === "completed" || g === "failed",
  )
    .map(
      (group) =>
        `<form method="post" action="/console/refunds/${id}/status" class="inline"><input type="hidden" name="statusGroup" value="${group}"><button type="submit">${group === "failed" ? "Fail" : "Complete"} refund ${id}</button></form>`,
    )
    .join(" ");
}

function faultForm(ctx: SandboxContext): string {
  const f = ctx.faults.current();
  const current =
    f.mode === "none"
      ? "none"
      : `${f.mode}${f.mode === "slow" ? ` (${f.delayMs} ms)` : ""}, paths ${f.paths.length ? f.paths.join(", ") : "all"}${f.remaining !== undefined ? `, ${f.remaining} call(s) left` : ""}`;
  const options = FAULT_MODES.map((m) => `<option value="${m}"${m === f.mode ? " selected" : ""}>${m}</option>`).join(
    "",
  );
  return `<h2 id="faults">Provider faults</h2>
<p>Now: <strong>${escapeHtml(current)}</strong>. <code>error</code> answers 500, <code>timeout</code> never answers, <code>slow</code> answers after the delay.</p>
<form method="post" action="/console/faults" class="grid">
<div><label for="fault-mode">Mode</label><select id="fault-mode" name="mode">${options}</select></div>
<div><label for="fault-delay">Delay (ms, slow)</label><input id="fault-delay" name="delayMs" type="number" min="0" value="3000"></div>
<div><label for="fault-paths">Path prefixes (comma-separated, empty: all)</label><input id="fault-paths" name="paths" type="text" placeholder="/pis/payment"></div>
<div><label for="fault-count">Calls (empty: until cleared)</label><input id="fault-count" name="count" type="number" min="1"></div>
<div><button type="submit">Apply</button></div>
</form>`;
}

function clockForms(ctx: SandboxContext): string {
  const steps: [string, number][] = [
    ["+1 minute", 60_000],
    ["+1 hour", 3_600_000],
    ["+1 day", 86_400_000],
    ["+7 days", 7 * 86_400_000],
  ];
  const buttons = steps
    .map(
      ([label, ms]) =>
        `<form method="post" action="/console/clock" class="inline"><input type="hidden" name="advanceMs" value="${ms}"><button type="submit">${label}</button></form>`,
    )
    .join(" ");
  return `<h2 id="clock">Clock</h2>
<p>Sandbox time <strong>${escapeHtml(time(ctx.now()))}</strong> (${ctx.store.clock.offsetMs} ms ahead of real time). Moving it expires links and tokens and completes pending payments and refunds.</p>
<p>${buttons}</p>`;
}

export function consolePage(ctx: SandboxContext): string {
  const payments = [...ctx.store.payments.values()].sort((a, b) => b.createdAt - a.createdAt).slice(0, SHOWN);
  const paymentRows = payments.map((p) => [
    `<code>${escapeHtml(p.id)}</code>`,
    escapeHtml(time(p.createdAt)),
    escapeHtml(`${projectById(ctx.store.projects, p.projectId)?.clientId ?? p.projectId} ${p.version}`),
    escapeHtml(p.method),
    `${escapeHtml(p.amount)} ${escapeHtml(p.currencyCode)}`,
    `${escapeHtml(p.description)}<br><small>endToEndId ${escapeHtml(p.endToEndId)}</small>`,
    `<strong>${escapeHtml(`${p.statusCode} / ${p.statusGroup}`)}</strong>${p.errorCodes.length ? `<br><small>error ${escapeHtml(p.errorCodes.join(", "))}</small>` : ""}`,
    escapeHtml(p.bankId ?? ""),
    `<ol class="history">${p.history.map((h) => `<li>${escapeHtml(`${time(h.at)} ${h.code} ${h.group} (${h.source})`)}</li>`).join("")}</ol>`,
    forceForm(p.id),
  ]);
  const refunds = [...ctx.store.refunds.values()].sort((a, b) => b.id - a.id).slice(0, SHOWN);
  const refundRows = refunds.map((r) => [
    String(r.id),
    `<code>${escapeHtml(r.paymentId)}</code>`,
    `${escapeHtml(r.amount)} ${escapeHtml(r.currencyCode)}`,
    escapeHtml(r.statusGroup),
    escapeHtml(time(r.createdAt)),
    escapeHtml(r.webhookUrl),
    r.statusGroup === "started" || r.statusGroup === "pending" ? refundActions(r.id) : "",
  ]);
  const deliveryRows = [...ctx.store.deliveries]
    .reverse()
    .slice(0, SHOWN)
    .map((d) => [
      escapeHtml(time(d.at)),
      escapeHtml(d.type),
      `<code>${escapeHtml(d.paymentId)}</code>${d.refundId !== undefined ? ` refund ${d.refundId}` : ""}`,
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
.scroll{overflow-x:auto}
code{font-size:.85em}small{color:#4a4a4a}
.history{margin:0;padding-left:1.1rem;font-size:.85em}
.inline{display:inline-flex;gap:.25rem;margin:0}
.grid{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end;margin-bottom:1rem}.grid label{display:block;font-weight:600}
button{font:inherit;padding:.2rem .6rem;cursor:pointer}
button:focus-visible,select:focus-visible,input:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
</style>
</head>
<body>
<main>
<h1>Sandbox provider console</h1>
<p>API base: <code>${escapeHtml(ctx.publicUrl())}/platform/v0.3</code> (also v0.1, v0.2). Credentials, test banks, users and cards: lib/sandbox/README.md. JSON: <code>/_sandbox/payments</code>, <code>/_sandbox/webhooks</code> (send <code>X-Sandbox-Secret</code>).</p>
${clockForms(ctx)}
${faultForm(ctx)}
<form method="post" action="/console/reset"><button type="submit">Reset the sandbox (forget everything)</button></form>
${table("payments", "Payments", ["Id", "Created", "Project", "Method", "Amount", "Description", "Status", "Bank", "History", "Force a status"], paymentRows)}
${table("refunds", "Refunds", ["Id", "Payment", "Amount", "Status", "Created", "Webhook-URL", "Decide"], refundRows)}
${table("deliveries", "Webhook deliveries", ["Time", "Type", "Payment", "URL", "Attempt", "Answer", "Next attempt"], deliveryRows)}
</main>
</body>
</html>`;
}

/** The console's forms: each applies one lever and goes back to the console. */
export async function handleConsoleAction(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  segments: string[],
) {
  const form = await readForm(req);
  const [a, b, c] = segments;
  try {
    if (a === "payments" && b !== undefined && c === "status") {
      const payment = ctx.store.payments.get(b);
      const [kind, code = ""] = (form.get("status") ?? "").split(":") as [StatusKind, string?];
      if (!payment) throw new PageError(404, "paymentNotFound");
      if (!(kind in STATUS_CODES) || !isStatusCode(kind, code)) throw new PageError(400, "formUnreadable");
      forcePaymentStatus(ctx, payment, { kind, code, source: "console" });
    } else if (a === "refunds" && b !== undefined && c === "status") {
      const refund = ctx.store.refunds.get(Number(b));
      const group = form.get("statusGroup") as StatusGroup;
      if (!refund) throw new PageError(404, "notFound");
      if (!STATUS_GROUPS.includes(group)) throw new PageError(400, "formUnreadable");
      setRefundStatus(ctx, refund, group);
    } else if (a === "faults") {
      const paths = (form.get("paths") ?? "").split(/[\s,]+/).filter(Boolean);
      const count = form.get("count");
      ctx.faults.set(
        parseFault({
          mode: form.get("mode"),
          delayMs: Number(form.get("delayMs") || 0),
          paths,
          ...(count ? { count: Number(count) } : {}),
        }),
      );
    } else if (a === "clock") {
      const ms = Number(form.get("advanceMs"));
      if (!Number.isInteger(ms) || ms < 0) throw new PageError(400, "formUnreadable");
      advanceClock(ctx, ms);
    } else if (a === "reset") {
      resetSandbox(ctx);
    } else throw new PageError(404, "notFound");
  } catch (error) {
    if (error instanceof ApiError) throw new PageError(400, "formUnreadable");
    throw error;
  }
  return redirect303(res, "/");
}
