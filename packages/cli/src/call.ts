// `api-clients call <operationId>`: any operation of either API, from the generated operation table,
// sent through the client's `request()` (its checks, retries, timeouts and typed errors).
import { readFile } from "node:fs/promises";
import { UsageError, type Context } from "./context.js";
import { inputHint, readInput, type CliOperation } from "./operations.js";
import { dryRun, formatRequest, send, type SendInput } from "./send.js";
import { printJson } from "./output/json.js";

/** The help text after the options of `call <operationId> --help`: what it does, parameters and body. */
export function operationHelp(op: CliOperation): string {
  const lines = [``, `The ${op.api} API's ${op.id}: ${op.method} ${op.path}`];
  if (op.description) lines.push(op.description);
  if (!op.idempotent) lines.push("Not retried on 5xx or timeouts: repeating it is not safe.");
  const line = (name: string, facts: (string | undefined)[], description?: string) =>
    `  ${name.padEnd(22)} ${facts.filter(Boolean).join(", ")}${description ? `: ${description}` : ""}`;
  const params = op.inputs.filter((i) => i.in !== "body");
  lines.push("", "Parameters (--param name=value):");
  if (params.length === 0) lines.push("  (none)");
  for (const p of params)
    lines.push(
      line(
        p.name,
        [
          p.in,
          p.required ? "required" : "optional",
          p.deprecated ? "deprecated" : undefined,
          inputHint(p),
        ],
        p.description,
      ),
    );
  lines.push("", "Body (--body JSON, --body @file, --body @- for stdin):");
  if (op.body === undefined) lines.push("  (none)");
  else {
    if (!op.body.required) lines.push("  optional");
    for (const group of op.body.oneOf ?? [])
      if (group.length === 1 && op.body.oneOf!.length > 1)
        lines.push(`  one of ${op.body.oneOf!.map((g) => g.join(" + ")).join(", ")} is required`);
      else break;
    for (const f of op.inputs.filter((i) => i.in === "body"))
      lines.push(
        line(
          f.name,
          [
            f.required ? "required" : "optional",
            f.deprecated ? "deprecated" : undefined,
            inputHint(f),
          ],
          f.description,
        ),
      );
  }
  return lines.join("\n");
}

/** Reads `--param name=value` pairs into the call's path and query, each value read by its rule. */
export function readParams(
  op: CliOperation,
  pairs: readonly string[],
  warn: (message: string) => void = () => {},
): SendInput {
  const given = new Map<string, string[]>();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--param: expected name=value, got ${JSON.stringify(pair)}`);
    const name = pair.slice(0, at);
    given.set(name, [...(given.get(name) ?? []), pair.slice(at + 1)]);
  }
  const params = op.inputs.filter((i) => i.in !== "body");
  const out: SendInput = {};
  for (const [name, values] of given) {
    const spec = params.find((p) => p.name === name);
    if (spec === undefined)
      throw new UsageError(
        `--param ${name}: ${op.id} has no parameter ${JSON.stringify(name)}` +
          (params.length > 0
            ? ` (it has: ${params.map((p) => p.name).join(", ")})`
            : " (it takes none)"),
      );
    (out[spec.in as "path" | "query"] ??= {})[name] = readInput(
      spec,
      values,
      `--param ${name}`,
      warn,
    );
  }
  for (const p of params)
    if (p.required && !given.has(p.name))
      throw new UsageError(`--param ${p.name}: required by ${op.id} (${p.in} parameter)`);
  return out;
}

/** Reads `--body`: JSON text, `@file`, or `@-` for standard input. */
export async function readBody(ctx: Context, value: string): Promise<unknown> {
  let text = value;
  if (value.startsWith("@")) {
    const file = value.slice(1);
    try {
      text = file === "-" ? await readStream(ctx.io.stdin) : await readFile(file, "utf8");
    } catch (error) {
      throw new UsageError(
        `--body: cannot read ${file === "-" ? "standard input" : file}: ${(error as Error).message}`,
      );
    }
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--body: not valid JSON (${(error as Error).message})`);
  }
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  stream.setEncoding("utf8");
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/** Sends one operation and prints its result as JSON (`"OK"` for an acknowledgement). */
export async function callOperation(
  ctx: Context,
  op: CliOperation,
  options: { param?: string[]; body?: string; dryRun?: boolean; yes?: boolean },
): Promise<void> {
  const input = readParams(op, options.param ?? [], (message) => ctx.err(message));
  const body = options.body === undefined ? undefined : await readBody(ctx, options.body);
  if (op.body === undefined && body !== undefined)
    throw new UsageError(`--body: ${op.id} takes no request body`);
  if (op.body?.required && body === undefined)
    throw new UsageError(`--body: ${op.id} requires a JSON body (see --help)`);
  if (body !== undefined) input.body = body;
  if (options.dryRun === true) {
    ctx.out(formatRequest(ctx, await dryRun(ctx, op, input)));
    ctx.err("(dry run: nothing was sent)");
    return;
  }
  const resource = Object.values(input.path ?? {})
    .map((value) => String(value))
    .join(" ");
  const result = await send(ctx, op, input, { yes: options.yes === true, resource });
  const shown =
    op.success === "acknowledgement" && (result === undefined || result === "") ? "OK" : result;
  if (shown !== undefined) await printJson(ctx, shown);
}
