// The one policy for calls the operator cannot undo: an operation the spec marks `x-irreversible`
// (deletions, restores, password and token resets, transfers, moves, plan changes) is sent only after
// a person said yes on a terminal, or with `--yes`. `send()` applies it, so no command can skip it.
import { UsageError, type Context } from "./context.js";
import type { CliOperation } from "./operations.js";
import { safeText } from "./output/safe.js";

/** What the operator agreed to before an irreversible call. */
export interface Consent {
  /** `--yes` was given: send without asking. */
  readonly yes: boolean;
  /** The resource the call acts on, as the command line named it (its ids, a member's e-mail). */
  readonly resource: string;
}

/** The question's lines: what, on which resource, as which account, on which server. */
export function describeCall(ctx: Context, op: CliOperation, resource: string): string[] {
  const { account, url, production } = ctx.target(op.api);
  return [
    `${op.summary}${resource === "" ? "" : `: ${safeText(resource)}`} (${op.id}, cannot be undone)`,
    `  account: ${account === undefined ? "the token's" : safeText(account)}`,
    `  server:  ${safeText(url)}${production ? " (production)" : ""}`,
  ];
}

/**
 * Resolves when `op` may be sent: it is not irreversible, `--yes` was given, or the operator answered
 * yes on the terminal. Without a terminal it throws a `UsageError` (exit code 2) before anything is
 * sent; a "no" throws an `Error` (exit code 1).
 */
export async function confirmCall(ctx: Context, op: CliOperation, consent: Consent): Promise<void> {
  if (!op.irreversible || consent.yes) return;
  const lines = describeCall(ctx, op, consent.resource);
  const stdin = ctx.io.stdin as NodeJS.ReadableStream & { isTTY?: boolean };
  if (stdin.isTTY !== true || ctx.io.stderr.isTTY !== true)
    throw new UsageError(
      `${lines.join("\n")}\npass --yes to confirm (there is no terminal to ask on); nothing was sent`,
    );
  const { createInterface } = await import("node:readline/promises");
  const rl = createInterface({ input: stdin, output: ctx.io.stderr });
  try {
    ctx.err(lines.join("\n"));
    const answer = await rl.question("Proceed? [y/N] ", { signal: ctx.signal });
    if (!/^\s*y(es)?\s*$/i.test(answer)) throw new Error("not confirmed: nothing was sent");
  } finally {
    rl.close();
  }
}
