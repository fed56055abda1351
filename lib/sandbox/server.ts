import { createSandbox } from "./app";

/** Entry of the sandbox provider: `tsx lib/sandbox/server.ts` (npm run sandbox). */

const port = Number(process.env.SANDBOX_PORT || 3001);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`SANDBOX_PORT must be a port number, got "${process.env.SANDBOX_PORT}"`);
  process.exit(1);
}
const publicUrl = process.env.SANDBOX_PUBLIC_URL || undefined;

const sandbox = createSandbox(publicUrl ? { publicUrl } : {});
const baseUrl = await sandbox.listen(port);
console.log(`sandbox provider listening on ${baseUrl}`);

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
