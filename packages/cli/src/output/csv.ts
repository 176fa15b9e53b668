// CSV as RFC 4180 writes it: CRLF line ends; a field with a comma, a double quote, CR or LF is quoted,
// with its double quotes doubled.

const NEEDS_QUOTES = /[",\r\n]/;

/** One field: absent as empty, strings as they are, objects and arrays as JSON. */
export function csvField(value: unknown): string {
  let text: string;
  if (value === undefined || value === null) text = "";
  else if (typeof value === "string") text = value;
  else if (typeof value === "object") text = JSON.stringify(value);
  else text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ending in CRLF. */
export function csvRow(values: readonly unknown[]): string {
  let line = "";
  for (let i = 0; i < values.length; i++) line += (i === 0 ? "" : ",") + csvField(values[i]);
  return line + "\r\n";
}
