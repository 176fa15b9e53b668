// `api-clients call <operationId>`: any operation of either API, from the clients' operation tables,
// sent through the client's `raw` (openapi-fetch) with the same auth, retries and timeouts.
import { readFile } from "node:fs/promises";
import { ApiError } from "@api-clients/logs-client";
import { UsageError, type Context } from "./context.js";
import {
  describeSchema,
  paramShape,
  schemaTypes,
  type OperationSpec,
  type Schema,
} from "./operation-table.js";

/** The help text after the options of `call <operationId> --help`: method, path, parameters and body. */
export function operationHelp(op: OperationSpec): string {
  const lines = [
    ``,
    `The ${op.api} API's ${op.id}: ${op.method} ${op.path}` +
      (op.idempotent ? "" : " (not retried on 5xx or timeouts: repeating it is not safe)"),
  ];
  if (!op.described) {
    lines.push(
      "",
      "(This client's operation table lists no parameters: pass them as --param name=value.)",
    );
    return lines.join("\n");
  }
  lines.push("", "Parameters (--param name=value):");
  if (op.params.length === 0) lines.push("  (none)");
  for (const p of op.params) {
    const about = [p.in, p.required ? "required" : "optional", describeSchema(p.schema)]
      .filter(Boolean)
      .join(", ");
    lines.push(`  ${p.name.padEnd(22)} ${about}${p.description ? `: ${p.description}` : ""}`);
  }
  lines.push("", "Body (--body JSON, --body @file, --body @- for stdin):");
  if (op.body === undefined) lines.push("  (none)");
  else {
    if (!op.body.required) lines.push("  optional");
    lines.push(...bodyLines(op.body.schema));
  }
  return lines.join("\n");
}

function bodyLines(schema: Schema): string[] {
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants)
    return variants.flatMap((v, i) => [
      `  variant ${i + 1}:`,
      ...bodyLines(v).map((l) => `  ${l}`),
    ]);
  const properties = schema.properties;
  if (properties === undefined) return [`  ${describeSchema(schema) || "JSON"}`];
  const required = new Set(schema.required ?? []);
  return Object.entries(properties).map(([name, s]) => {
    const about = [required.has(name) ? "required" : "optional", describeSchema(s)]
      .filter(Boolean)
      .join(", ");
    return `  ${name.padEnd(22)} ${about}${s.description ? `: ${s.description}` : ""}`;
  });
}

function convert(raw: string, schema: Schema, name: string): unknown {
  const types = schemaTypes(schema);
  if ((types.includes("integer") || types.includes("number")) && !types.includes("string")) {
    const n = raw.trim() === "" ? Number.NaN : Number(raw);
    if (!Number.isFinite(n))
      throw new UsageError(`--param ${name}: expected a number, got ${JSON.stringify(raw)}`);
    return n;
  }
  if (types.length === 1 && types[0] === "boolean") {
    if (raw === "true" || raw === "false") return raw === "true";
    throw new UsageError(`--param ${name}: expected true or false, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** Reads `--param name=value` pairs into openapi-fetch's `params`, checked against the operation. */
export function readParams(op: OperationSpec, pairs: readonly string[]) {
  const given = new Map<string, string[]>();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--param: expected name=value, got ${JSON.stringify(pair)}`);
    const name = pair.slice(0, at);
    given.set(name, [...(given.get(name) ?? []), pair.slice(at + 1)]);
  }
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const known = new Set(op.params.map((p) => p.name));
  for (const [name, values] of given) {
    const spec = op.params.find((p) => p.name === name);
    if (spec === undefined) {
      if (op.described)
        throw new UsageError(
          `--param ${name}: ${op.id} has no parameter ${JSON.stringify(name)}` +
            (known.size > 0 ? ` (it has: ${[...known].join(", ")})` : " (it takes none)"),
        );
      query[name] = values.length > 1 ? values : values[0];
      continue;
    }
    const { scalar, repeatable, arrayOnly } = paramShape(spec.schema);
    if (values.length > 1 && !repeatable)
      throw new UsageError(`--param ${name}: given ${values.length} times; it takes one value`);
    const converted = values.map((v) => convert(v, scalar, name));
    (spec.in === "path" ? path : query)[name] =
      arrayOnly || converted.length > 1 ? converted : converted[0];
  }
  for (const p of op.params)
    if (p.required && !given.has(p.name))
      throw new UsageError(`--param ${p.name}: required by ${op.id} (${p.in} parameter)`);
  return { path, query };
}

/** Reads `--body`: JSON text, `@file`, or `@-` for standard input. */
async function readBody(ctx: Context, value: string): Promise<unknown> {
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

interface RawResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}
type RawRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<RawResult>;

/** Sends one operation and prints its result as JSON. */
export async function callOperation(
  ctx: Context,
  op: OperationSpec,
  options: { param?: string[]; body?: string },
): Promise<void> {
  const params = readParams(op, options.param ?? []);
  const body = options.body === undefined ? undefined : await readBody(ctx, options.body);
  if (op.described && op.body === undefined && body !== undefined)
    throw new UsageError(`--body: ${op.id} takes no request body`);
  if (op.described && op.body?.required && body === undefined)
    throw new UsageError(`--body: ${op.id} requires a JSON body (see --help)`);

  const raw = (op.api === "logs" ? ctx.logs().raw : ctx.management().raw) as unknown as {
    request: RawRequest;
  };
  const result = await raw.request(op.method.toLowerCase(), op.path, {
    params,
    ...(body === undefined ? {} : { body }),
    signal: ctx.signal,
  });
  const { response } = result;
  if (!response.ok || ("error" in result && result.error !== undefined)) {
    throw ApiError.from({
      status: response.status,
      headers: response.headers,
      body: result.error,
      method: op.method,
      url: response.url,
    });
  }
  if (result.data !== undefined) ctx.out(JSON.stringify(result.data, null, 2) + "\n");
}
