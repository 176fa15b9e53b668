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
