// Exact windows and resumes. A relative bound (`--from 1h`, `--since 2d`) is resolved once, when the
// command starts; a command that reads a whole window (`export`, `summary`) also fixes its end at that
// moment when `--to` is not given. The command printed to resume such a run carries these absolute
// bounds (`--from <ms> --to <ms> --cursor …`), so running it later reads the rest of the same window,
// whatever arrived meanwhile: the two runs together hold what one run over that window writes.
import type { ListLogsParams } from "@api-clients/logs-client";
import type { GlobalOptions } from "../context.js";
import type { FilterFlag } from "./filters.js";

/** The parameters with `toDate` set to `now` when none was given: the window ends when the run starts. */
export function pinWindow(params: ListLogsParams, now: number): ListLogsParams {
  return params.toDate === undefined ? { ...params, toDate: now } : params;
}

const PLAIN = /^[\w@%+=:,./-]+$/;

/** A word as a POSIX shell reads it back unchanged: as it is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The flags that give `params` again, as `readFilters` reads them (dates as Unix milliseconds). */
export function filterArgs(
  params: Record<string, unknown>,
  flags: readonly FilterFlag[],
): string[] {
  const args: string[] = [];
  for (const f of flags) {
    const value = params[f.param];
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = item instanceof Date ? String(item.getTime()) : String(item);
      args.push(f.short ?? f.flag, text);
    }
  }
  return args;
}

/**
 * The global flags of this run that reach the API (`--base-url`, `--max-retries`, `--timeout`) and
 * `--token-file`: a credential itself is never printed (the environment or the file gives it again).
 */
export function globalArgs(options: GlobalOptions): string[] {
  const args: string[] = [];
  if (options.tokenFile !== undefined) args.push("--token-file", options.tokenFile);
  if (options.baseUrl !== undefined) args.push("--base-url", options.baseUrl);
  if (options.maxRetries !== undefined) args.push("--max-retries", options.maxRetries);
  if (options.timeout !== undefined) args.push("--timeout", options.timeout);
  return args;
}

/** A command line to print: each word quoted for a POSIX shell when it needs it. */
export function commandLine(words: readonly string[]): string {
  return words.map(shellWord).join(" ");
}

/** A URL with its password (if any) replaced by `***`, to print. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === "") return url;
    parsed.password = "***";
    return parsed.href;
  } catch {
    return url;
  }
}
