// What keeps secrets from the model: every credential in use (and its Basic-auth encoding) and every
// secret field of a result (database passwords, REST and QStash tokens) is replaced by `***`.
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

/**
 * A function that replaces every occurrence of the given credentials in a text, and the forms they
 * travel in (the `email:key` pair Base64-encoded for Basic auth).
 */
export function credentialMasker(
  credentials: readonly (string | undefined)[],
  pairs: readonly (readonly [string, string])[] = [],
): (text: string) => string {
  const secrets = new Set<string>();
  for (const c of credentials) if (c !== undefined && c.length >= 4) secrets.add(c);
  for (const [user, key] of pairs) {
    if (key.length < 4) continue;
    secrets.add(Buffer.from(`${user}:${key}`).toString("base64"));
    secrets.add(encodeURIComponent(key));
  }
  // Longest first, so that a credential containing another is masked whole.
  const list = [...secrets].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(MASK);
    return out;
  };
}
