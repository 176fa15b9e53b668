// The error every part of the emulator throws to answer a status, and the body every error answer has.

/** An error with an HTTP status and the message of its error body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The `code` of an error body by status (the service publishes no codes: the status's name). */
const CODES: Readonly<Record<number, string>> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE",
  409: "CONFLICT",
  412: "PRECONDITION_FAILED",
  413: "PAYLOAD_TOO_LARGE",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
  502: "BAD_GATEWAY",
  503: "SERVICE_UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

/** The body of an error answer, with the fields both documents use. */
export interface ErrorBody {
  /** The reason (what the logs document and older deployments send, and what clients read first). */
  error: string;
  /** A machine-readable code (the management reference's `Error.code`). */
  code: string;
  /** The reason again (the management reference's `Error.message`). */
  message: string;
}

/** `{ error, code, message }`: valid against the logs document's `Error` and the management one's. */
export function errorBody(status: number, message: string): ErrorBody {
  return { error: message, code: CODES[status] ?? `HTTP_${status}`, message };
}
