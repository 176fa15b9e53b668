// The one rule for server text on a terminal: no control character reaches it. Every string a server
// sent (URLs, labels, errors, field names, cursors, hints) passes `safeText` (for text) or `safeJson`
// (for JSON) before it is printed, so no escape sequence (colours, cursor moves, OSC 52 clipboard
// writes, title changes) can act on the operator's terminal.

// C0 controls but newline, DEL, C1 controls; and the Unicode line/paragraph separators in JSON.
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
// Characters that change how the text around them looks without showing themselves, so a name can be
// spoofed (`invoice\u202egpj.exe` shows as `invoiceexe.jpg`): the bidi marks, embeddings, overrides
// and isolates, and the zero-width space, joiners, word joiner and byte order mark.
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const JSON_UNSAFE =
  /[\u007f-\u009f\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
// The same set without the global flag, for a test that keeps no state between calls (`lastIndex`).
const HAS_JSON_UNSAFE = new RegExp(JSON_UNSAFE.source);

const hex = (c: string): string => c.charCodeAt(0).toString(16).padStart(2, "0");

/**
 * Server text made printable: CRLF becomes a newline, a tab a space, every other control character
 * (below 0x20 but newline, DEL, 0x80–0x9f) its visible `\xNN` form, and every bidi control or
 * zero-width character its visible `\uNNNN` form.
 */
export function safeText(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(CONTROL, (c) => (c === "\t" ? " " : `\\x${hex(c)}`))
    .replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * `JSON.stringify` with DEL, the C1 controls, the bidi controls and the zero-width characters (which
 * JSON allows raw) escaped as `\uXXXX`: the same value for any JSON reader, and nothing that acts on
 * a terminal or hides itself there (JSON escapes the controls below 0x20).
 */
export function safeJson(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent) as string | undefined;
  if (json === undefined) throw new TypeError(`safeJson: ${typeof value} is not JSON`);
  // Most JSON holds none of these: a test that allocates nothing spares it the replace's pass and copy.
  if (!HAS_JSON_UNSAFE.test(json)) return json;
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
