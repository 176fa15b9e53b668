// Sends one operation through its client's public `request()`: the pipeline's own checks, retries,
// timeouts and typed errors (with their attempts and notes), for `call` and every management command.
// `--dry-run` sends it through a client whose `fetch` only records the request.
import { readFile } from "node:fs/promises";
import { UsageError, type ApiName, type Context } from "./context.js";
import { confirmCall, type Consent } from "./confirm.js";
import type { CliOperation } from "./operations.js";

/** The path parameters, query and JSON body of one call. */
export interface SendInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** The part of either client this module uses: its public `request()`. */
interface Requester {
  request: (id: string, input: SendInput, options?: { signal?: AbortSignal }) => Promise<unknown>;
}

/**
 * Sends `op` with `input` and resolves to its parsed success body (typed errors otherwise). An
 * irreversible operation is sent only with the operator's consent (see `confirmCall`).
 */
export async function send(
  ctx: Context,
  op: CliOperation,
  input: SendInput,
  consent: Consent,
): Promise<unknown> {
  await confirmCall(ctx, op, consent);
  const client = (op.api === "logs" ? ctx.logs() : ctx.management()) as unknown as Requester;
  return client.request(op.id, input, { signal: ctx.signal });
}

/** What `--dry-run` shows: the request exactly as the client would send it. */
export interface CapturedRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
}

/** A request stopped before it left (`--dry-run`). */
class NotSent extends Error {}

/**
 * Builds `op`'s request through the client's whole pipeline (the same checks and URL) and returns it
 * instead of sending it; a wrong input throws as it would without `--dry-run`.
 */
export async function dryRun(
  ctx: Context,
  op: CliOperation,
  input: SendInput,
): Promise<CapturedRequest> {
  let captured: CapturedRequest | undefined;
  const client = ctx.offline(op.api satisfies ApiName, async (request) => {
    captured = {
      method: request.method,
      url: request.url,
      headers: [...request.headers],
      body: request.body === null ? "" : await request.text(),
    };
    throw new NotSent("dry run");
  }) as unknown as Requester;
  try {
    await client.request(op.id, input, { signal: ctx.signal });
  } catch (error) {
    if (captured !== undefined) return captured;
    throw error;
  }
  throw new Error("dry run: the client sent no request");
}

/** The captured request as text: request line, headers (credentials masked), a blank line, the body. */
export function formatRequest(ctx: Context, request: CapturedRequest): string {
  const lines = [`${request.method} ${request.url}`];
  for (const [name, value] of request.headers) {
    const shown = name === "authorization" ? `${value.split(" ")[0]} ***` : ctx.redact(value);
    lines.push(`${name}: ${shown}`);
  }
  if (request.body !== "") lines.push("", ctx.redact(request.body));
  return lines.join("\n") + "\n";
}

/** Reads `--body`: JSON text, `@file`, or `@-` for standard input. */
export async function readBody(stdin: NodeJS.ReadableStream, value: string): Promise<unknown> {
  let text = value;
  if (value.startsWith("@")) {
    const file = value.slice(1);
    try {
      text = file === "-" ? await readStream(stdin) : await readFile(file, "utf8");
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
