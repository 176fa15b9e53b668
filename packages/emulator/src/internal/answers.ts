// Building answers: JSON and error answers (their bytes kept for the HTTP server), the request body
// (bounded) and its JSON, injected faults, and bodies a scenario slows down or cuts short.
import { EXPOSED_HEADERS } from "./access.js";
import type { FaultRule } from "./faults.js";
import { errorBody, HttpError } from "./http-error.js";
import type { ScenarioEffect } from "./scenarios.js";

/** Largest accepted request body. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * Thrown by `handleFetch` when a fault drops the connection without an answer: the HTTP server
 * destroys the socket, `emulator.fetch` rejects as a failed `fetch` does.
 */
export class ConnectionReset extends Error {
  constructor() {
    super("emulator: the connection was reset (injected fault)");
  }
}

/** The bytes of a body the handler built, kept so the HTTP server writes them without a stream. */
export const bodyBytes = new WeakMap<Response, string | Uint8Array>();

const encoder = new TextEncoder();

/** A JSON answer (the body given as text, as UTF-8 bytes or as a value). */
export function json(
  status: number,
  body: unknown,
  headers: Headers = new Headers(),
  raw = false,
): Response {
  const data =
    body instanceof Uint8Array ? body : encoder.encode(raw ? String(body) : JSON.stringify(body));
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("content-length", String(data.byteLength));
  const res = new Response(data as Uint8Array<ArrayBuffer>, { status, headers });
  bodyBytes.set(res, data);
  return res;
}

/** An error answer: `{ error, code, message }` (`errorBody`), the shape every non-2xx answer has. */
export function errorAnswer(status: number, message: string, headers?: Headers): Response {
  return json(status, errorBody(status, message), headers);
}

/** Reads the request body, refusing more than MAX_BODY_BYTES with 413. */
export async function readBody(request: Request): Promise<Uint8Array> {
  const tooLarge = (): HttpError =>
    new HttpError(413, `body: must be at most ${MAX_BODY_BYTES} bytes`, { connection: "close" });
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      void reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

const decoder = new TextDecoder();

export function parseJson(buf: Uint8Array): unknown {
  if (buf.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(buf));
  } catch {
    throw new HttpError(400, "body: is not valid JSON");
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Applies a fault; resolves to its answer, or undefined when the request goes on normally. */
export async function applyFault(rule: FaultRule, out: Headers): Promise<Response | undefined> {
  if (rule.delayMs) await sleep(rule.delayMs);
  if (rule.resetConnection) throw new ConnectionReset();
  for (const [name, value] of Object.entries(rule.headers ?? {})) out.set(name, value);
  if (typeof rule.retryAfter === "number" && !Number.isInteger(rule.retryAfter)) {
    // HTTP's Retry-After takes whole seconds: a fraction goes out as retry-after-ms, the header
    // rounded up for clients that read only Retry-After.
    out.set("retry-after-ms", String(Math.round(rule.retryAfter * 1000)));
    out.set("retry-after", String(Math.ceil(rule.retryAfter)));
  } else if (rule.retryAfter !== undefined) out.set("retry-after", String(rule.retryAfter));
  // A browser script may read the headers a rule adds, like the API's own.
  if (out.has("access-control-expose-headers") && rule.headers) {
    const extra = Object.keys(rule.headers).map((h) => h.toLowerCase());
    const all = new Set<string>([...EXPOSED_HEADERS, ...extra]);
    out.set("access-control-expose-headers", [...all].join(", "));
  }
  if (rule.malformedBody) return json(rule.status ?? 200, '{"events":[{"time":17', out, true);
  if (rule.status === undefined) return undefined;
  const body =
    rule.body === undefined ? errorBody(rule.status, `injected fault (${rule.status})`) : rule.body;
  return json(rule.status, body, out, typeof body === "string");
}

export /** An answer whose body comes slowly (4 parts, a wait before each) or stops halfway with an error. */
function reshape(answer: Response, effect: Extract<ScenarioEffect, { kind: "body" }>): Response {
  const bytes = bodyBytes.get(answer);
  if (bytes === undefined) return answer;
  const data = typeof bytes === "string" ? encoder.encode(bytes) : bytes;
  const parts: Uint8Array[] = [];
  if (effect.mode === "truncated") parts.push(data.subarray(0, Math.floor(data.byteLength / 2)));
  else {
    const size = Math.ceil(data.byteLength / 4) || 1;
    for (let at = 0; at < data.byteLength; at += size) parts.push(data.subarray(at, at + size));
  }
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next < parts.length) {
        if (effect.delayMs > 0) await sleep(effect.delayMs);
        controller.enqueue(parts[next++] as Uint8Array);
      } else if (effect.mode === "truncated") {
        controller.error(new TypeError("terminated: the body was cut short (truncated-body)"));
      } else controller.close();
    },
  });
  // The headers (Content-Length included) announce the whole body.
  return new Response(body, { status: answer.status, headers: answer.headers });
}
