import { apiErrors } from "./http";

/**
 * Injected provider faults (POST /_sandbox/faults, the console): while set, matching API calls
 * answer 500 (`error`, nothing is processed), never answer (`timeout`: processed, then the socket
 * is held until the client gives up) or answer late (`slow`: processed, answered after delayMs).
 * Processing before holding is deliberate: a lost answer to a created payment is the case a
 * merchant must survive.
 */

export const FAULT_MODES = ["none", "error", "timeout", "slow"] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface Fault {
  mode: FaultMode;
  delayMs: number;
  /** Path prefixes, with or without `/platform/v0.x`; empty matches every API call. */
  paths: string[];
  /**
   * HTTP methods to match (e.g. POST alone, so that status reads of the same payment path go
   * through and cannot use up a counted fault); absent matches every method.
   */
  methods?: string[];
  /** Matching calls left before the fault clears itself; undefined for no limit. */
  remaining?: number;
}

const NONE: Fault = { mode: "none", delayMs: 0, paths: [] };
const DEFAULT_SLOW_MS = 3_000;

export interface Faults {
  current(): Fault;
  set(fault: Fault): void;
  /** The fault for this API call, counting it; undefined when the call goes through normally. */
  take(method: string, fullPath: string, apiPath: string): Fault | undefined;
}

export function createFaults(): Faults {
  let fault: Fault = NONE;
  return {
    current: () => fault,
    set(next) {
      fault = next.mode === "none" ? NONE : next;
    },
    take(method, fullPath, apiPath) {
      if (fault.mode === "none") return undefined;
      const matches =
        fault.paths.length === 0 || fault.paths.some((p) => fullPath.startsWith(p) || apiPath.startsWith(p));
      if (!matches || (fault.methods !== undefined && !fault.methods.includes(method))) return undefined;
      const taken = fault;
      if (fault.remaining !== undefined) {
        fault = fault.remaining <= 1 ? NONE : { ...fault, remaining: fault.remaining - 1 };
      }
      return taken;
    },
  };
}

/** Reads `{mode, delayMs?, paths?, methods?, count?}`; `paths` and `methods` may also be one string. */
export function parseFault(input: unknown): Fault {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw apiErrors.invalidRequest(`"value" must be of type object`);
  const raw = input as Record<string, unknown>;
  if (!FAULT_MODES.includes(raw.mode as FaultMode))
    throw apiErrors.invalidRequest(`"mode" must be one of [${FAULT_MODES.join(", ")}]`);
  const mode = raw.mode as FaultMode;
  const delayMs = raw.delayMs ?? (mode === "slow" ? DEFAULT_SLOW_MS : 0);
  if (typeof delayMs !== "number" || !Number.isInteger(delayMs) || delayMs < 0)
    throw apiErrors.invalidRequest(`"delayMs" must be a non-negative integer`);
  const paths = raw.paths === undefined ? [] : typeof raw.paths === "string" ? [raw.paths] : raw.paths;
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === "string" && p.startsWith("/"))) {
    throw apiErrors.invalidRequest(`"paths" must be an array of path prefixes starting with "/"`);
  }
  const methods = raw.methods === undefined ? undefined : typeof raw.methods === "string" ? [raw.methods] : raw.methods;
  if (
    methods !== undefined &&
    (!Array.isArray(methods) || !methods.every((m) => typeof m === "string" && /^[A-Z]+$/.test(m)))
  ) {
    throw apiErrors.invalidRequest(`"methods" must be an array of HTTP methods such as "POST"`);
  }
  const count = raw.count;
  if (count !== undefined && (typeof count !== "number" || !Number.isInteger(count) || count < 1)) {
    throw apiErrors.invalidRequest(`"count" must be a positive integer`);
  }
  return {
    mode,
    delayMs,
    paths: paths as string[],
    ...(methods !== undefined && { methods: methods as string[] }),
    ...(count !== undefined && { remaining: count }),
  };
}
