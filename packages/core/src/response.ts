import { InvalidResponseError } from "./errors.js";
import { getResponseMeta } from "./internal/response-meta.js";

/** The part of an openapi-fetch result (called with `parseAs: "text"`) that the readers need. */
export interface TextResult {
  /** The raw body text (`undefined` when openapi-fetch saw an empty body). */
  data?: string | undefined;
  /** The HTTP response. */
  response: Response;
}

/** Builds the {@link InvalidResponseError} for a 2xx result whose body is not what the API promises. */
export function invalidResponse(result: TextResult, reason: string): InvalidResponseError {
  const meta = getResponseMeta(result.response);
  return new InvalidResponseError({
    status: result.response.status,
    headers: result.response.headers,
    body: result.data,
    method: meta?.method ?? "",
    url: meta?.url ?? result.response.url,
    reason,
  });
}

/**
 * Parses the JSON body of a successful openapi-fetch result read with `parseAs: "text"`; an empty or
 * malformed body throws {@link InvalidResponseError}, never a bare `SyntaxError`.
 *
 * @example
 * const page = readJson<LogsPage>(await raw.GET("/v2/logs", { parseAs: "text", fetch }));
 */
export function readJson<T>(result: TextResult): T {
  const text = result.data;
  if (text === undefined || text.trim() === "")
    throw invalidResponse(result, "response body is empty");
  try {
    return JSON.parse(text) as T;
  } catch {
    throw invalidResponse(result, "response body is not valid JSON");
  }
}

/**
 * Accepts an acknowledgement body: the JSON string `"OK"`, plain `OK` (any case, surrounding
 * whitespace allowed) or an empty body; anything else throws {@link InvalidResponseError}.
 */
export function readAcknowledgement(result: TextResult): void {
  const text = result.data?.trim() ?? "";
  if (text === "" || text.toUpperCase() === "OK") return;
  if (text.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "string" && parsed.trim().toUpperCase() === "OK") return;
    } catch {
      // Falls through to the error below.
    }
  }
  throw invalidResponse(result, 'expected the acknowledgement "OK"');
}
