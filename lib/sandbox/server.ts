import { createSandbox, type SandboxOptions } from "./app";

/** Entry of the sandbox provider: `tsx lib/sandbox/server.ts` (npm run sandbox). Settings: README.md. */

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function integer(name: string, min: number, max: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    fail(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return value;
}

function delays(name: string): number[] | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const values = raw.split(",").map((v) => Number(v.trim()));
  if (!values.every((v) => Number.isInteger(v) && v >= 0))
    fail(`${name} must be comma-separated milliseconds, got "${raw}"`);
  return values;
}

const port = integer("SANDBOX_PORT", 0, 65535) ?? 3001;
const options: SandboxOptions = {};
const publicUrl = process.env.SANDBOX_PUBLIC_URL;
if (publicUrl) options.publicUrl = publicUrl;
const dataDir = process.env.SANDBOX_DATA_DIR;
if (dataDir) options.dataDir = dataDir;
const pendingMs = integer("SANDBOX_PENDING_MS", 0, 30 * 86_400_000);
if (pendingMs !== undefined) options.pendingMs = pendingMs;
const refundDelayMs = integer("SANDBOX_REFUND_MS", 0, 30 * 86_400_000);
if (refundDelayMs !== undefined) options.refundDelayMs = refundDelayMs;
const retries = delays("SANDBOX_WEBHOOK_RETRY_MS");
if (retries) options.webhookRetryDelaysMs = retries;

const controlSecret = process.env.SANDBOX_CONTROL_SECRET;
if (controlSecret) options.controlSecret = controlSecret;
// This machine only, unless told otherwise: the sandbox hands out test money to anyone who asks.
const host = process.env.SANDBOX_HOST || "127.0.0.1";

const sandbox = createSandbox(options);
const baseUrl = await sandbox.listen(port, host);
console.log(`sandbox provider listening on ${baseUrl}${dataDir ? ` (state in ${dataDir})` : ""}`);

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  sandbox.close().then(
    () => {
      console.log("sandbox provider stopped");
      process.exit(0);
    },
    (error: unknown) => {
      console.error("sandbox: error while closing", error);
      process.exit(1);
    },
  );
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
