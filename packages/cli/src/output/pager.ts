// Long output on a terminal goes through `$PAGER` (`less -FRX` by default: it quits at once when the
// text fits one screen, keeps colours, and leaves the text on the screen), as `git` and `gh` do.
import { spawn } from "node:child_process";
import type { Context } from "../context.js";

/** What decides whether output is paged. */
export interface PagerInput {
  /** Whether stdout is a terminal. */
  tty: boolean;
  /** Rows of the terminal. */
  rows: number | undefined;
  /** `PAGER` (and `API_CLIENTS_PAGER`, which wins) from the environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** `--no-pager` gives `false`. */
  pager: boolean;
  /** `--json` or `--jq`: output for a program, never paged. */
  json: boolean;
  /** Lines of the output. */
  lines: number;
}

/**
 * The pager command to run, or `undefined` to write straight to stdout: not a terminal, `--no-pager`,
 * JSON, output no taller than the terminal, or a pager set to `""` or `cat`.
 */
export function pagerFor(input: PagerInput): string | undefined {
  if (!input.tty || !input.pager || input.json) return undefined;
  if (input.lines < (input.rows ?? 24)) return undefined;
  const command = (input.env["API_CLIENTS_PAGER"] ?? input.env["PAGER"] ?? "less -FRX").trim();
  return command === "" || command === "cat" ? undefined : command;
}

/** Writes `text` (a table, a record) through the pager when {@link pagerFor} says so, else to stdout. */
export async function paged(ctx: Context, text: string): Promise<void> {
  const stdout = ctx.io.stdout as typeof ctx.io.stdout & { rows?: number };
  const command = pagerFor({
    tty: stdout.isTTY === true && stdout === process.stdout,
    rows: stdout.rows,
    env: ctx.io.env,
    pager: ctx.options.pager !== false,
    json: ctx.options.jq !== undefined,
    lines: text.split("\n").length - 1,
  });
  if (command === undefined) {
    ctx.out(text);
    return;
  }
  // LESS=FRX as git sets it, unless the operator has their own.
  const child = spawn(command, {
    shell: true,
    stdio: ["pipe", "inherit", "inherit"],
    env: { ...ctx.io.env, LESS: ctx.io.env["LESS"] ?? "FRX" },
  });
  const done = new Promise<void>((resolve) => {
    child.on("error", () => resolve());
    child.on("close", () => resolve());
  });
  // The pager quitting early (q) closes the pipe: the rest is not wanted.
  child.stdin.on("error", () => {});
  child.stdin.end(ctx.redact(text));
  await done;
}
