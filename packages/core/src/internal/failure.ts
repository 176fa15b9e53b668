// What went wrong in an attempt that produced no usable response, as the typed error to report.
import {
  ApiClientError,
  ConnectionError,
  InvalidResponseError,
  RedirectLoopError,
  TimeoutError,
} from "../errors.js";
import { redactUrl } from "./redact.js";

/** Where an attempt failed: enough to name it in the error. */
export interface AttemptPlace {
  readonly method: string;
  readonly url: string;
  readonly attempts: number;
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message !== "" && cause.message !== error.message) {
    return `${error.message}: ${cause.message}`;
  }
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? `${error.message}: ${code}` : error.message;
}

/** Whether fetch gave up on a redirect loop (undici: "redirect count exceeded"). */
function isRedirectLoop(error: unknown): boolean {
  return /redirect count/i.test(String((error as { cause?: unknown } | null)?.cause));
}

/**
 * A failure thrown by `fetch` or while reading the body, as the typed error (secrets redacted): a
 * `TimeoutError` when the attempt's timer fired, a `RedirectLoopError`, else a `ConnectionError`.
 */
export function attemptFailure(
  error: unknown,
  place: AttemptPlace & { timeoutMs: number; timedOut: boolean },
  redact: (text: string) => string,
): ApiClientError {
  const { method, url, attempts } = place;
  if (error instanceof ApiClientError) return error;
  if (place.timedOut) {
    return new TimeoutError({ timeoutMs: place.timeoutMs, method, url, cause: error, attempts });
  }
  if (isRedirectLoop(error)) {
    return new RedirectLoopError({ method, url, attempts, cause: error });
  }
  const described = describeCause(error);
  const detail = redact(described);
  const cause = detail === described ? error : new Error(detail);
  return new ConnectionError(`Connection failed (${method} ${url}): ${detail}`, {
    cause,
    method,
    url,
    attempts,
  });
}

/**
 * Why an answer from `fetch` is refused before it is read, as the error to throw (never retried): not
 * a Response at all, not a WHATWG one (a node-fetch one has a Node stream for a body), or an https
 * request redirected to http.
 */
export function refusal(response: unknown, place: AttemptPlace): ApiClientError | undefined {
  const { method, url, attempts } = place;
  const { body, headers, status } = (response ?? {}) as Partial<Response>;
  let reason: string | undefined;
  if (typeof response !== "object" || response === null) {
    reason = `the \`fetch\` option resolved to ${String(response)}, not a Response`;
  } else if (
    typeof status !== "number" ||
    typeof headers?.get !== "function" ||
    (body !== null && typeof body?.getReader !== "function")
  ) {
    // A node-fetch body is a Node stream: destroy it, so its connection is released.
    (body as { destroy?: () => void } | null | undefined)?.destroy?.();
    reason =
      "the `fetch` option returned a non-standard Response (not a WHATWG one, as node-fetch's)";
  }
  if (reason !== undefined) {
    return new InvalidResponseError({
      status: typeof status === "number" ? status : 0,
      headers: new Headers(),
      body: undefined,
      method,
      url,
      attempts,
      reason,
    });
  }
  const answered = response as Response;
  if (url.startsWith("https:") && answered.url.startsWith("http:")) {
    answered.body?.cancel().catch(() => undefined);
    return new ConnectionError(
      `Refused a redirect from https to http (${redactUrl(answered.url)}) (${method} ${url})`,
      { method, url, attempts },
    );
  }
  return undefined;
}
