// CSV as RFC 4180 writes it: CRLF line ends; a field with a comma, a double quote, CR or LF is quoted,
// with its double quotes doubled. A text that a spreadsheet would read as a formula (it starts with
// =, +, -, @, TAB or CR) is written as OWASP recommends: a single quote before it, and quoted, so it
// opens as text.

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA = /^[=+\-@\t\r]/;

/** One field: absent as empty, strings as they are (formulas escaped), objects and arrays as JSON. */
export function csvField(value: unknown): string {
  let text: string;
  if (value === undefined || value === null) text = "";
  else if (typeof value === "string") text = value;
  else if (typeof value === "object") text = JSON.stringify(value);
  else text = String(value);
  const formula = typeof value === "string" && FORMULA.test(text);
  if (formula) text = `'${text}`;
  return formula || NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ending in CRLF. */
export function csvRow(values: readonly unknown[]): string {
  let line = "";
  for (let i = 0; i < values.length; i++) line += (i === 0 ? "" : ",") + csvField(values[i]);
  return line + "\r\n";
}
