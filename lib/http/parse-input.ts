import type { z } from "zod";

/** A request part its schema refused: answered 400 invalid_request, each field named. */
export class InvalidInput extends Error {
  constructor(
    readonly where: string,
    readonly errors: { path: string; message: string }[],
  ) {
    super(`invalid ${where}`);
  }
}

/** `value` as its schema makes it, or InvalidInput naming each field wrong; nothing when there is no schema. */
export function parseInput(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (!schema) return undefined;
  const r = schema.safeParse(value);
  if (!r.success) {
    throw new InvalidInput(
      where,
      r.error.issues.flatMap((i) => problemsOf(i, where)),
    );
  }
  // Postgres cannot store U+0000 in text: refused here, naming the field, instead of failing the write.
  const nul = nulPath(r.data);
  if (nul !== undefined) {
    throw new InvalidInput(where, [{ path: nul || where, message: "must not contain the NUL character (U+0000)" }]);
  }
  return r.data;
}

/** One problem per field; a field the schema does not know is named itself, not its parent. */
function problemsOf(issue: z.core.$ZodIssue, where: string): { path: string; message: string }[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({
      path: [...issue.path, key].join("."),
      message: "is not a field of this request",
    }));
  }
  return [{ path: issue.path.join(".") || where, message: issue.message }];
}

/** Where a parsed value holds a string with U+0000 ("" for the value itself), if anywhere. */
function nulPath(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return value.includes("\0") ? path : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const found = nulPath(inner, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
