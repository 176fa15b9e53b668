import { InvalidResponseError } from "../errors.js";
import { redactData, redactHeaders, TOO_DEEP_NOTE } from "./redact.js";

/** What the pipeline knows about the exchange that produced a response. */
export interface Exchange {
  /** HTTP method. */
  readonly method: string;
  /** Request URL, without credentials. */
  readonly url: string;
  /** Attempts made, the last one included. */
  readonly attempts: number;
  /** Removes the client's secrets from text a server may have echoed. */
  readonly redact: (text: string) => string;
}

const decoder = new TextDecoder();

/**
 * A response whose body was read completely within its attempt (so the attempt's timeout covered it
 * and a failure while reading was retried like any other). Its `json()` turns a malformed body into an
 * `InvalidResponseError` instead of a bare `SyntaxError`, and `url`/`redirected` are the real ones.
 * `text()` and `json()` read the bytes directly; a body stream (for `body`, `arrayBuffer()`, …) is
 * built only when one of those is used, since building one costs more than the rest of the call.
 */
class BufferedResponseClass extends Response {
  readonly #bytes: Uint8Array;
  readonly #exchange: Exchange;
  /** The response that was read (its `url` and `redirected`). */
  readonly #source: Response;
  /** The headers as given, until `headers` is first read; then the headers it returns. */
  #headers: Headers;
  #headersRead = false;
  /** A standard response over the same bytes, once something asked for the stream. */
  #streamed: Response | undefined;

  constructor(bytes: Uint8Array, source: Response, exchange: Exchange, headers = source.headers) {
    super(null, { status: source.status, statusText: source.statusText });
    this.#bytes = bytes;
    this.#exchange = exchange;
    this.#source = source;
    this.#headers = headers;
  }

  /**
   * The headers, with `content-length` the length of the bytes held (the body is decoded already:
   * its length is known exactly, and no longer encoded): a copy made on first read, or the read
   * response's own headers when they say so already (most answers: no copy at all).
   */
  #readHeaders(): Headers {
    if (this.#headersRead) return this.#headers;
    this.#headersRead = true;
    const given = this.#headers;
    const length = String(this.#bytes.byteLength);
    // The response's own headers (immutable, as fetch gives them) when they are right already.
    const own = given === this.#source.headers;
    if (own && (nullBodyStatus(this.status) || given.get("content-length") === length)) {
      return given;
    }
    const copied = new Headers(given);
    if (!nullBodyStatus(this.status)) copied.set("content-length", length);
    return (this.#headers = copied);
  }

  override text(): Promise<string> {
    return Promise.resolve(decoder.decode(this.#bytes));
  }

  override json(): Promise<any> {
    const text = decoder.decode(this.#bytes);
    try {
      return Promise.resolve(JSON.parse(text));
    } catch {
      return Promise.reject(invalidResponse(this, "response body is not valid JSON", text));
    }
  }

  override clone(): Response {
    return new BufferedResponseClass(this.#bytes, this, this.#exchange, new Headers(this.headers));
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#stream().arrayBuffer();
  }

  override blob(): Promise<Blob> {
    return this.#stream().blob();
  }

  override formData(): Promise<FormData> {
    return this.#stream().formData();
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#stream().bytes();
  }

  /** The standard response over the bytes, built on first use. */
  #stream(): Response {
    return (this.#streamed ??= new Response(
      nullBodyStatus(this.status) ? null : (this.#bytes as BodyInit),
      this,
    ));
  }

  static {
    // Accessors of Response: the real request's `url` and `redirected` (not "" and false), and the
    // body stream, built on demand.
    const getters: Record<string, (this: BufferedResponseClass) => unknown> = {
      url() {
        return this.#source.url;
      },
      redirected() {
        return this.#source.redirected;
      },
      headers() {
        return this.#readHeaders();
      },
      body() {
        return this.#stream().body;
      },
      bodyUsed() {
        return !!this.#streamed?.bodyUsed;
      },
    };
    for (const name in getters) {
      Object.defineProperty(BufferedResponseClass.prototype, name, { get: getters[name]! });
    }
  }

  /** The exchange behind a response the pipeline produced, or `undefined` for any other response. */
  static exchangeOf(response: Response): Exchange | undefined {
    return #exchange in response ? response.#exchange : undefined;
  }
}

/** Statuses whose response has no body (`new Response` refuses one). */
function nullBodyStatus(status: number): boolean {
  return status === 204 || status === 205 || status === 304;
}

/** How the pipeline builds and reads its responses (the class itself stays out of the declarations). */
export interface BufferedResponseConstructor {
  new (bytes: Uint8Array, source: Response, exchange: Exchange, headers?: Headers): Response;
  /** The exchange behind a response the pipeline produced, or `undefined` for any other response. */
  exchangeOf(response: Response): Exchange | undefined;
}

/**
 * A response whose body was read completely within its attempt (`BufferedResponseClass` above). Declared by its
 * constructor's shape only: its `text`/`json` overrides clash with how some type libraries (undici's)
 * declare `Response`, and a consumer's compiler must never see them.
 */
export const BufferedResponse = BufferedResponseClass as unknown as BufferedResponseConstructor;

/**
 * Builds the {@link InvalidResponseError} for a 2xx response whose body is not what the API promises;
 * the client's secrets are redacted from the body (as parsed data) and the headers.
 */
export function invalidResponse(
  response: Response,
  reason: string,
  body?: unknown,
): InvalidResponseError {
  const exchange = BufferedResponse.exchangeOf(response);
  const redact = exchange?.redact ?? ((text: string) => text);
  const data = redactData(body, redact);
  return new InvalidResponseError({
    status: response.status,
    headers: redactHeaders(response.headers, redact),
    body: data,
    method: exchange?.method ?? "",
    url: exchange?.url ?? response.url,
    attempts: exchange?.attempts,
    reason: data === undefined && body !== undefined ? `${reason}; ${TOO_DEEP_NOTE}` : reason,
  });
}
