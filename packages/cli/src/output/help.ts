// Help text fitted to the terminal: commander wraps its own option and command lists at `helpWidth`;
// the texts added after them (an operation's parameters, from the spec, with descriptions of
// hundreds of characters) are wrapped here, each continuation line aligned under its description.
import type { Command } from "commander";
import type { Io } from "../context.js";
import { streamWidth } from "./fit.js";
import { width } from "./table.js";

/**
 * Writes the program's help and errors to `io`: help wrapped at stdout's width, and errors with
 * `api-clients:` in front and never a mistyped flag's value (it may be a credential: `--tokn=<secret>`).
 */
export function writeHelpTo(program: Command, io: Io): Command {
  return program.configureHelp({ helpWidth: streamWidth(io, "stdout") ?? 80 }).configureOutput({
    writeOut: (text) => io.stdout.write(fitHelp(text, streamWidth(io, "stdout"))),
    writeErr: (text) => io.stderr.write(text),
    outputError: (text, write) =>
      write(text.replace(/^error: /, "api-clients: ").replace(/'(--?[^'=\s]+)=[^']*'/g, "'$1=…'")),
  });
}

/** The column a line's description starts at: after its first run of two spaces, else its indent. */
function hangingIndent(line: string, max: number): number {
  const column = /^(\s*\S.*?\s{2,})\S/.exec(line)?.[1];
  if (column !== undefined && width(column) <= max / 2) return width(column);
  return /^\s*/.exec(line)?.[0].length ?? 0;
}

/** One line broken at spaces into lines of at most `max` columns (a longer word stays whole). */
function wrapLine(line: string, max: number): string[] {
  if (width(line) <= max) return [line];
  const indent = " ".repeat(hangingIndent(line, max));
  const lines: string[] = [];
  let current = "";
  for (const word of line.split(/(?<=\S)(?= )/)) {
    // `word` keeps its leading spaces, so the start of the line keeps its alignment.
    const next = current + word;
    if (current.trim() !== "" && width(next) > max) {
      lines.push(current.trimEnd());
      current = indent + word.trimStart();
    } else current = next;
  }
  lines.push(current.trimEnd());
  return lines;
}

/** `text` with every line longer than `max` columns wrapped; as it is without a width. */
export function fitHelp(text: string, max: number | undefined): string {
  if (max === undefined) return text;
  return text
    .split("\n")
    .flatMap((line) => wrapLine(line, max))
    .join("\n");
}
