import { appendFile } from "node:fs/promises";
import { env } from "../env";

/**
 * Test rig only: with CONTRACT_RECORD_FILE set (the e2e run sets it) and the sandbox as provider,
 * every API answer is appended to that file as one JSON line, and e2e/contract.spec.ts checks each
 * against the OpenAPI document. Never on with a real provider: the bodies hold payers' data.
 */
const file = process.env.CONTRACT_RECORD_FILE || null;

export function recordingAnswers(): boolean {
  return file !== null && env().sandbox;
}

export async function recordAnswer(req: Request, res: Response): Promise<void> {
  if (!file || !new URL(req.url).pathname.startsWith("/api/")) return;
  const body = await res.clone().text();
  const line = {
    method: req.method,
    path: new URL(req.url).pathname,
    status: res.status,
    contentType: res.headers.get("content-type"),
    body,
  };
  await appendFile(file, `${JSON.stringify(line)}\n`);
}
