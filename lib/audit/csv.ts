import type { AuditRow } from "./audit";

const HEAD = ["time", "actor_kind", "actor", "action", "target_kind", "target", "outcome", "detail", "client_address"];

/**
 * The audit rows as CSV (RFC 4180), for an auditor's spreadsheet. A cell a spreadsheet would run as
 * a formula (=, +, -, @ first) gets a leading apostrophe: a sign-in with such an email must not run.
 */
export function auditCsv(rows: AuditRow[]): string {
  const lines = [HEAD, ...rows.map(cells)].map((line) => line.map(cell).join(","));
  return lines.join("\r\n") + "\r\n";
}

function cells(r: AuditRow): string[] {
  return [
    r.occurredAt.toISOString(),
    r.actorKind,
    r.actorLabel ?? r.actorId ?? "",
    r.action,
    r.targetKind ?? "",
    r.targetId ?? "",
    r.outcome,
    r.detail ? JSON.stringify(r.detail) : "",
    r.clientAddress ?? "",
  ];
}

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
