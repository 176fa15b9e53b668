// A strict RFC 4180 reader for the tests: it rejects what a conforming writer never produces (a quote
// inside an unquoted field, text after a closing quote, a bare CR or LF outside quotes), so a quoting
// bug fails the test instead of being read leniently.

const UNQUOTED_END = /[,\r\n"]/g;

/** Parses CSV text (CRLF-terminated records) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let field: string;
    if (text[i] === '"') {
      field = "";
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) throw new Error(`unterminated quoted field from ${i}`);
        field += text.slice(from, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          from = quote + 2;
          continue;
        }
        i = quote + 1;
        break;
      }
      if (i < n && text[i] !== "," && text[i] !== "\r")
        throw new Error(`text after a closing quote at ${i}`);
    } else {
      UNQUOTED_END.lastIndex = i;
      const end = UNQUOTED_END.exec(text);
      const stop = end === null ? n : end.index;
      if (end !== null && (end[0] === '"' || end[0] === "\n"))
        throw new Error(`unquoted ${JSON.stringify(end[0])} at ${stop}`);
      field = text.slice(i, stop);
      i = stop;
    }
    row.push(field);
    if (text[i] === ",") {
      i++;
      if (i === n) row.push("");
      continue;
    }
    if (i < n && !(text[i] === "\r" && text[i + 1] === "\n")) throw new Error(`bare CR at ${i}`);
    rows.push(row);
    row = [];
    i += 2;
  }
  if (row.length > 0) rows.push(row);
  return rows;
}
