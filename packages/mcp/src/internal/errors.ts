// A failed call as a tool error: its class, the service's or the client's message (credentials
// masked), and what to do next.
import {
  AbortError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  DeadlineExceededError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from "@api-clients/core";

/** What to do after `error`, in one sentence. */
function nextStep(error: unknown): string {
  if (error instanceof ValidationError)
    return `Fix the argument \`${error.field}\` (${error.rule}) and call again.`;
  if (error instanceof RateLimitError)
    return error.retryAfterMs !== undefined
      ? `Rate limited: wait ${Math.ceil(error.retryAfterMs / 1000)} s before calling again.`
      : "Rate limited: wait before calling again.";
  if (error instanceof AuthenticationError)
    return "The credentials were refused: the person running the server must check them (QSTASH_TOKEN, or UPSTASH_EMAIL and UPSTASH_API_KEY).";
  if (error instanceof PermissionDeniedError)
    return "These credentials may not do this (a read-only key, or another team's resource).";
  if (error instanceof NotFoundError)
    return "Nothing has this id: list the resources to find the right one.";
  if (error instanceof DeadlineExceededError)
    return "The call ran out of time, retries included: try again later.";
  if (error instanceof TimeoutError || error instanceof ConnectionError)
    return "The service could not be reached: try again later.";
  if (error instanceof AbortError) return "The call was cancelled.";
  if (error instanceof ApiError && error.status >= 500)
    return "The service failed: try again later.";
  if (error instanceof ApiError) return "The service refused the request: check the arguments.";
  return "An unexpected error: report it.";
}

/** The text of a tool error for `error`, with credentials masked by `mask`. */
export function errorText(error: unknown, mask: (text: string) => string): string {
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`${name}: ${message}`];
  if (error instanceof ApiError && error.requestId !== undefined)
    lines.push(`request id: ${error.requestId}`);
  lines.push(nextStep(error));
  // Server text may carry terminal escapes: shown as `?`, never passed on.
  return mask(lines.join("\n")).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "?");
}
