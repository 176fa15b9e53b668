/** Returns the URL without any `user:password@` part, so it is safe to put in messages and logs. */
export function redactUrl(url: string): string {
  if (!url.includes("@")) return url;
  try {
    const parsed = new URL(url);
    if (parsed.username === "" && parsed.password === "") return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return "[unparseable URL]";
  }
}

/** Shortens text to at most `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

const REDACTED = "[REDACTED]";

/** Shortest secret that is redacted (shorter ones, like a demo `key`, would blank out ordinary text). */
const MIN_SECRET_LENGTH = 8;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A pattern for a secret in any form JSON may write it (each character as itself, as `\uXXXX`, or as
 * `\/`, `\"`, `\\`), for text that is not parsed (an HTML page, a truncated body); used with the `i`
 * flag, so the hex digits match in either case.
 */
const anyJsonForm = (secret: string): string =>
  secret.replace(/[^]/g, (char) => {
    const plain = escapeRegExp(char);
    const code = char.charCodeAt(0).toString(16).padStart(4, "0");
    return `(?:${plain}|\\\\u${code}${'/"\\'.includes(char) ? `|\\\\${plain}` : ""})`;
  });

/**
 * A function that replaces every occurrence of the client's own secrets (token, API key, the full
 * `Authorization` value and its base64 part) with `[REDACTED]`, for text a server may have echoed,
 * written plainly or with JSON escapes, in any letter case. A secret is replaced as a whole value (not
 * where it is part of a longer word of letters and digits; a JSON escape before it, like `\n`, ends a
 * word), and only when it has at least 8 characters.
 */
export function secretRedactor(secrets: readonly string[]): (text: string) => string {
  const list = [...new Set(secrets)]
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  const whole = (form: (secret: string) => string, after = ""): RegExp =>
    new RegExp(`(?:(?<![a-z0-9])${after})(?:${list.map(form).join("|")})(?![a-z0-9])`, "gi");
  const plain = whole(escapeRegExp);
  // About 8 times slower on long text: only for text that has a backslash.
  const escaped = whole(anyJsonForm, "|(?<=\\\\(?:[bfnrt]|u[0-9a-f]{4}))");
  return (text) => text.replace(text.includes("\\") ? escaped : plain, REDACTED);
}

/**
 * {@link secretRedactor} for text this process serialized itself (`JSON.stringify`, a CSV row), at the
 * cost of one search when the text holds no secret: such text writes a secret's characters as
 * themselves, never as JSON escapes, so a plain search in any letter case finds every one, and only
 * text that has one goes through the whole redaction.
 */
export function serializedSecretRedactor(secrets: readonly string[]): (text: string) => string {
  const list = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  if (list.length === 0) return (text) => text;
  const redact = secretRedactor(list);
  const search = new RegExp(list.map(escapeRegExp).join("|"), "i");
  return (text) => (search.test(text) ? redact(text) : text);
}

/** Deepest nesting of a body an error keeps (JSON.parse accepts any depth; printing it would overflow). */
export const MAX_BODY_DEPTH = 256;

/** Said in an error whose body was not kept because it nests deeper than {@link MAX_BODY_DEPTH}. */
export const TOO_DEEP_NOTE = "body not kept: nested deeper than 256 levels";

/**
 * A copy of a parsed body with `redact` applied to every string and key (so an echo written with JSON
 * escapes such as `\/` or `\u0041` is caught once decoded); own `__proto__` keys stay data. Returns
 * `undefined` for a body nested deeper than {@link MAX_BODY_DEPTH}.
 */
export function redactData(value: unknown, redact: (text: string) => string): unknown {
  try {
    return copy(value, redact, 0);
  } catch (error) {
    if (error === TOO_DEEP) return undefined;
    throw error;
  }
}

/** Thrown (and caught) by `copy` past the depth limit; a plain object, so nothing runs at load. */
const TOO_DEEP = {};

function copy(value: unknown, redact: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return redact(value);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= MAX_BODY_DEPTH) throw TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => copy(item, redact, depth + 1));
  // `fromEntries` defines the keys, so an own `__proto__` stays data.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redact(key), copy(item, redact, depth + 1)]),
  );
}

/** A copy of response headers with `redact` applied to every value. */
export function redactHeaders(headers: Headers, redact: (text: string) => string): Headers {
  return new Headers(
    [...headers].map(([name, value]) => [name, redact(value)] as [string, string]),
  );
}
