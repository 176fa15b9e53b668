// `api-clients call <operationId>`: any operation of either API, from the generated operation table,
// sent through the client's `request()` (its checks, retries, timeouts and typed errors).
import type { CliCommand, FlagSpec } from "./command.js";
import type { Consent } from "./confirm.js";
import { UsageError } from "./context.js";
import { allOperations, inputHint, readInput, type CliOperation } from "./operations.js";
import { dryRun, formatRequest, readBody, send, type SendInput } from "./send.js";
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

/** What `call` sends. */
export interface CallInput {
  input: SendInput;
  dryRun: boolean;
  consent: Consent;
}

/** `api-clients call <operationId>` for one operation. */
export function callCommand(op: CliOperation): CliCommand<CallInput> {
  const flags: FlagSpec[] = [];
  if (op.irreversible)
    flags.push({
      flags: "-y, --yes",
      description: "send without asking: it cannot be undone (needed without a terminal)",
    });
  flags.push(
    {
      flags: "-p, --param <name=value>",
      description: "a path or query parameter (repeat for several; see below)",
      repeat: true,
      fills: op.inputs.filter((i) => i.in !== "body").map((i) => i.name),
      shown: (name) => `--param ${name}`,
      values: op.inputs.filter((i) => i.in !== "body").map((i) => `${i.name}=`),
    },
    {
      flags: "--body <json>",
      description: "the JSON request body: inline, @file, or @- for stdin",
    },
    { flags: "--dry-run", description: "print the request that would be sent, and send nothing" },
  );
  return {
    path: ["call", op.id],
    summary: `${op.method} ${op.path}: ${op.summary}`,
    help: operationHelp(op),
    flags,
    async read(_args, opts, env) {
      const input = readParams(op, (opts["param"] as string[] | undefined) ?? [], env.warn);
      const body =
        typeof opts["body"] === "string" ? await readBody(env.stdin, opts["body"]) : undefined;
      if (op.body === undefined && body !== undefined)
        throw new UsageError(`--body: ${op.id} takes no request body`);
      if (op.body?.required && body === undefined)
        throw new UsageError(`--body: ${op.id} requires a JSON body (see --help)`);
      if (body !== undefined) input.body = body;
      const resource = Object.values(input.path ?? {})
        .map((value) => String(value))
        .join(" ");
      return {
        input,
        dryRun: opts["dryRun"] === true,
        consent: { yes: opts["yes"] === true, resource },
      };
    },
    async run(ctx, { input, dryRun: dry, consent }) {
      if (dry) {
        ctx.out(formatRequest(ctx, await dryRun(ctx, op, input)));
        ctx.err("(dry run: nothing was sent)");
        return;
      }
      const result = await send(ctx, op, input, consent);
      const shown =
        op.success === "acknowledgement" && (result === undefined || result === "") ? "OK" : result;
      if (shown !== undefined) await printJson(ctx, shown);
    },
  };
}

/** Every `call` command, one per operation of either API. */
export const callCommands = (): CliCommand<CallInput>[] => allOperations().map(callCommand);

/** The `call` group. */
export const CALL_GROUP = {
  name: "call",
  summary: "any operation of either API by its operationId (`api-clients call --help` lists them)",
  help: "\nEach operation has its own help: api-clients call <operationId> --help\nThe result is printed as JSON.",
};
