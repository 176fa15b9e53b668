// The one rule for server text on a terminal: no control character reaches it. Every string a server
// sent (URLs, labels, errors, field names, cursors, hints) passes `safeText` (for text) or `safeJson`
// (for JSON) before it is printed, so no escape sequence (colours, cursor moves, OSC 52 clipboard
// writes, title changes) can act on the operator's terminal.

// C0 controls but newline, DEL, C1 controls; and the Unicode line/paragraph separators in JSON.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029]/g;

const hex = (c: string): string => c.charCodeAt(0).toString(16).padStart(2, "0");

/**
 * Server text made printable: CRLF becomes a newline, a tab a space, every other control character
 * (below 0x20 but newline, DEL, 0x80–0x9f) its visible `\xNN` form.
 */
export function safeText(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(CONTROL, (c) => (c === "\t" ? " " : `\\x${hex(c)}`));
}

/**
 * `JSON.stringify` with DEL and the C1 controls (which JSON allows raw) escaped as `\u00XX`: the same
 * value for any JSON reader, and no control character for a terminal (JSON escapes those below 0x20).
 */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    JSON_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
