// A strict RFC 4180 reader for the tests: it rejects what a conforming writer never produces (a quote
// inside an unquoted field, text after a closing quote, a bare CR), so a quoting bug fails the test.

/** Parses CSV text (CRLF records) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= n) throw new Error("unterminated quoted field");
        const c = text[i];
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += c;
        i++;
      }
      if (i < n && text[i] !== "," && !(text[i] === "\r" && text[i + 1] === "\n"))
        throw new Error(`text after a closing quote at ${i}`);
    } else {
      while (i < n && text[i] !== "," && text[i] !== "\r") {
        if (text[i] === '"' || text[i] === "\n")
          throw new Error(`unquoted ${JSON.stringify(text[i])} at ${i}`);
        field += text[i];
        i++;
      }
      if (text[i] === "\r" && text[i + 1] !== "\n") throw new Error(`bare CR at ${i}`);
    }
    row.push(field);
    if (text[i] === ",") {
      i++;
      continue;
    }
    // End of record (CRLF) or of the text.
    rows.push(row);
    row = [];
    i += 2;
  }
  return rows;
}
