// The error every part of the emulator throws to answer a status with `{ "error": message }`.

/** An error with an HTTP status and the message of its `{ "error" }` body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
