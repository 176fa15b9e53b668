// What keeps secret fields from the model: every secret field of a result (database passwords, REST
// and QStash tokens) is replaced by `***`. The credentials in use are masked by core's redactor (see
// Backend.maskCredentials).
import { secretFields } from "../generated/tools.js";

/**
 * The fields of results that hold a secret: the properties the specs mark `x-secret: true` (database
 * passwords, REST and QStash tokens), compiled into the generated table.
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(secretFields);

/** What replaces a secret. */
export const MASK = "***";

/** Replaces every secret field of `value` (at any depth) by {@link MASK}; returns a copy. */
export function maskSecretFields(value: unknown, depth = 0): unknown {
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => maskSecretFields(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] =
      SECRET_FIELDS.has(key) && typeof field === "string" && field !== ""
        ? MASK
        : maskSecretFields(field, depth + 1);
  }
  return out;
}
