// A final answer, its body read whole: a success as a buffered response, an HTTP error as the typed
// error (and, for `raw`, the redacted response openapi-fetch parses), a body too large as its error.
import { ApiError, InvalidResponseError } from "../errors.js";
import type { OperationSpec } from "../operation.js";
import { BufferedResponse, type Exchange } from "./buffered-response.js";
import { redactData, redactHeaders, TOO_DEEP_NOTE, truncate } from "./redact.js";
import type { Watch } from "./tracing.js";

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const OK_JSON = encoder.encode('"OK"');

/** What a final answer turned into. */
export interface Answer {
  /** The response handed back: its body held in memory (redacted for an error answer). */
  readonly response: Response;
  /** The typed error of an HTTP error answer (none when the service says the state already matches). */
  readonly error?: ApiError | undefined;
  /** A 4xx whose text says the state already matches (`x-already-applied`): the call had its effect. */
  readonly applied?: boolean;
}

/** The body parsed as JSON, or `undefined` when it is empty or not JSON. */
function parseJson(text: string): { value: unknown } | undefined {
  try {
    return text === "" ? undefined : { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The acknowledgement rule, the one place it lives: every 2xx of an acknowledgement operation is a
 * success. `"OK"` (JSON or plain, any case) or an empty body reads as `"OK"`; anything else is kept
 * (as a JSON string when it is not JSON) and quoted in a `warning` event, never an error.
 */
function acknowledgement(bytes: Uint8Array, watch: Watch, exchange: Exchange): Uint8Array {
  const text = decoder.decode(bytes).trim();
  if (/^("?)\s*(ok)?\s*\1$/i.test(text)) return OK_JSON;
  watch.warn(
    `the acknowledgement is not "OK" but ${truncate(exchange.redact(text), 200)}; read as success`,
  );
  try {
    JSON.parse(text);
    return bytes;
  } catch {
    return encoder.encode(JSON.stringify(text));
  }
}

/** A 2xx answer, its bytes held. */
export function succeeded(
  operation: OperationSpec | undefined,
  response: Response,
  bytes: Uint8Array,
  exchange: Exchange,
  watch: Watch,
): Answer {
  const ack = operation?.success === "acknowledgement";
  const held = ack ? acknowledgement(bytes, watch, exchange) : bytes;
  return { response: new BufferedResponse(held, response, exchange) };
}

/**
 * A final non-2xx answer, its body read whole: decoded, redacted and parsed once into the typed
 * error; the response handed back holds the redacted text (what `raw` callers read).
 */
export function failed(
  operation: OperationSpec | undefined,
  response: Response,
  bytes: Uint8Array,
  exchange: Exchange,
  note: string | undefined,
): Answer {
  const { status } = response;
  const { redact } = exchange;
  const decoded = decoder.decode(bytes);
  const json = parseJson(decoded);
  // Redacted as parsed data, so JSON escapes cannot hide an echoed secret.
  let changed = false;
  const body = redactData(json === undefined ? decoded || undefined : json.value, (text) => {
    const redacted = redact(text);
    changed ||= redacted !== text;
    return redacted;
  });
  const tooDeep = json !== undefined && body === undefined;
  // What `raw` callers read: the text as sent unless redaction changed the data.
  const text =
    json === undefined || tooDeep ? redact(decoded) : changed ? JSON.stringify(body) : decoded;
  const headers = redactHeaders(response.headers, redact);
  const marker = operation?.alreadyApplied;
  // The service says the state already matches: the call had its effect.
  const applied =
    marker !== undefined &&
    status >= 400 &&
    status < 500 &&
    text.toLowerCase().includes(marker.toLowerCase());
  const error = applied
    ? undefined
    : ApiError.from({
        status,
        headers,
        body,
        ...exchange,
        note: tooDeep ? (note === undefined ? TOO_DEEP_NOTE : `${note}; ${TOO_DEEP_NOTE}`) : note,
      });
  // The body kept too deep is not a value to hand back: openapi-fetch parses the text instead.
  const parsed = tooDeep ? exchange : { ...exchange, parsed: { value: body } };
  const held = new BufferedResponse(encoder.encode(text), response, parsed, headers);
  return { response: held, error, applied };
}

/**
 * The error for a body over `maxResponseBytes` (not read, never retried): an error status keeps its
 * class (`NotFoundError`, …) with a note, a 2xx is an `InvalidResponseError`; headers redacted.
 */
export function tooLarge(response: Response, exchange: Exchange, limit: number): ApiError {
  const reason = `response body is larger than maxResponseBytes (${limit} bytes)`;
  const { method, url, attempts, redact } = exchange;
  const init = {
    status: response.status,
    headers: redactHeaders(response.headers, redact),
    body: undefined,
    method,
    url,
    attempts,
  };
  return response.ok
    ? new InvalidResponseError({ ...init, reason })
    : ApiError.from({ ...init, note: `${reason}, not read` });
}
