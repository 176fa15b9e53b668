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

/** Shortest secret that is redacted (shorter ones would blank out ordinary text). */
const MIN_SECRET_LENGTH = 4;

/**
 * A function that replaces every occurrence of the client's own secrets (token, API key, the full
 * `Authorization` value and its base64 part) with `[REDACTED]`, for text a server may have echoed.
 */
export function secretRedactor(secrets: readonly string[]): (text: string) => string {
  const list = [...new Set(secrets)]
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
}
