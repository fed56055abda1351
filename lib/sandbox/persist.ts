import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isFinal } from "./statuses";
import type {
  AuthCode,
  AuthRequest,
  Linking,
  PaymentRecord,
  RefundRecord,
  Store,
  TokenRecord,
  WebhookDelivery,
  WebhookJob,
} from "./store";

/**
 * Optional persistence (SANDBOX_DATA_DIR): the store as one JSON file, written after changes with
 * a short debounce, atomically (temp file + rename) so a crash mid-write never leaves half a file.
 */

const FILE_NAME = "sandbox-state.json";
const FORMAT = 1;

function snapshot(store: Store): string {
  return JSON.stringify({
    format: FORMAT,
    payments: [...store.payments.values()],
    refunds: [...store.refunds.values()],
    webhookJobs: [...store.webhookJobs.values()],
    deliveries: store.deliveries,
    authRequests: [...store.authRequests.values()],
    authCodes: [...store.authCodes.values()],
    linkings: [...store.linkings.values()],
    tokens: [...store.tokens.values()],
    counters: store.counters,
    clock: store.clock,
  });
}

type Saved = Partial<{
  format: number;
  payments: PaymentRecord[];
  refunds: RefundRecord[];
  webhookJobs: WebhookJob[];
  deliveries: WebhookDelivery[];
  authRequests: AuthRequest[];
  authCodes: AuthCode[];
  linkings: Linking[];
  tokens: TokenRecord[];
  counters: Store["counters"];
  clock: Store["clock"];
}>;

/** Loads a saved state into the store; a missing file is a fresh start. */
export function loadState(store: Store, dir: string): boolean {
  let text: string;
  try {
    text = readFileSync(path.join(dir, FILE_NAME), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  const saved = JSON.parse(text) as Saved;
  if (saved.format !== FORMAT) throw new Error(`${FILE_NAME}: unknown format ${String(saved.format)}`);
  for (const p of saved.payments ?? []) {
    store.payments.set(p.id, p);
    if (!isFinal(p.statusGroup)) store.unsettled.payments.add(p);
  }
  for (const r of saved.refunds ?? []) {
    store.refunds.set(r.id, r);
    if (!isFinal(r.statusGroup)) store.unsettled.refunds.add(r);
  }
  for (const j of saved.webhookJobs ?? []) store.webhookJobs.set(j.id, j);
  store.deliveries.push(...(saved.deliveries ?? []));
  for (const a of saved.authRequests ?? []) store.authRequests.set(a.state, a);
  for (const c of saved.authCodes ?? []) store.authCodes.set(c.code, c);
  for (const l of saved.linkings ?? []) store.linkings.set(l.id, l);
  for (const t of saved.tokens ?? []) store.tokens.set(t.token, t);
  Object.assign(store.counters, saved.counters);
  Object.assign(store.clock, saved.clock);
  return true;
}

export interface Persister {
  /** Notes a change; the file is written shortly after the last one. */
  changed(): void;
  /** Writes now if anything is pending (on close). */
  flush(): void;
}

export function createPersister(store: Store, dir: string, debounceMs = 200): Persister {
  const file = path.join(dir, FILE_NAME);
  const temp = `${file}.${process.pid}.tmp`;
  mkdirSync(dir, { recursive: true });
  let timer: NodeJS.Timeout | undefined;

  function write() {
    timer = undefined;
    writeFileSync(temp, snapshot(store));
    renameSync(temp, file);
  }

  return {
    changed() {
      if (timer) return;
      timer = setTimeout(() => {
        try {
          write();
        } catch (error) {
          console.error("sandbox: could not save state", error);
        }
      }, debounceMs);
      timer.unref();
    },
    flush() {
      if (!timer) return;
      clearTimeout(timer);
      write();
    },
  };
}

/** For memory-only sandboxes (tests). */
export const NO_PERSISTENCE: Persister = { changed() {}, flush() {} };
