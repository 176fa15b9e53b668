// The type of each client's `raw`: openapi-fetch's `Client`, with response bodies read through a
// `Readable` that leaves primitives alone. Public (inside semver): the clients' declarations use it.
//
// Workaround for openapi-typescript issue 2765 (fix proposed in PR 2766): openapi-fetch 0.17's
// `Readable<T>` tests `T extends object` before returning a leaf, and an open value set's
// `string & {}` passes that test, so `data[0].state` read as an object with every string method
// instead of `string`. Remove this file (and use `Client` again) once openapi-fetch ships the fix.
import type { MaybeOptionalInit, Middleware, ParseAsResponse } from "openapi-fetch";
import type {
  $Read,
  $Write,
  ErrorResponse,
  HttpMethod,
  MediaType,
  PathsWithMethod,
  RequiredKeysOf,
  ResponseObjectMap,
  SuccessResponse,
} from "openapi-typescript-helpers";

/** openapi-fetch's `Readable<T>` with the primitive guard of PR 2766: `string & {}` stays a string. */
export type RawReadable<T> =
  T extends $Write<unknown>
    ? never
    : T extends $Read<infer U>
      ? RawReadable<U>
      : T extends string | number | boolean | bigint | symbol
        ? T
        : T extends (infer E)[]
          ? RawReadable<E>[]
          : T extends object
            ? {
                [
                  K in keyof T as NonNullable<T[K]> extends $Write<unknown> ? never : K
                ]: RawReadable<T[K]>;
              }
            : T;

/** The responses of an operation (openapi-fetch's `ResponseObjectMap`, narrowed for the compiler). */
type Responses<T> =
  ResponseObjectMap<T> extends infer R extends Record<string | number, any> ? R : never;

/** What a `raw` call resolves to: `{ data, response }` on success, `{ error, response }` otherwise. */
export type RawResponse<T, Options, Media extends MediaType> =
  | {
      data: ParseAsResponse<RawReadable<SuccessResponse<Responses<T>, Media>>, Options>;
      error?: never;
      response: Response;
    }
  | {
      data?: never;
      error: RawReadable<ErrorResponse<Responses<T>, Media>>;
      response: Response;
    };

/** `T[K]`, for a `K` the compiler cannot prove to be a key of `T`. */
type At<T, K> = K extends keyof T ? T[K] : never;

/** The init argument, required when the operation has a required parameter or body (as openapi-fetch's). */
type RawInit<Init> =
  RequiredKeysOf<Init> extends never
    ? [(Init & { [key: string]: unknown })?]
    : [Init & { [key: string]: unknown }];

/** One HTTP method of `raw`, e.g. `raw.GET(path, { params })`. */
export type RawMethod<Paths extends {}, Method extends HttpMethod, Media extends MediaType> = <
  Path extends PathsWithMethod<Paths, Method>,
  Init extends MaybeOptionalInit<At<Paths, Path>, Method & keyof At<Paths, Path>>,
>(
  url: Path,
  ...init: RawInit<Init>
) => Promise<RawResponse<At<At<Paths, Path>, Method>, Init, Media>>;

/**
 * A client's `raw`: the typed openapi-fetch client (the same runtime object and signatures as its
 * `Client`), whose response types read open value sets (`"active" | (string & {})`) as strings.
 */
export interface RawClient<Paths extends {}, Media extends MediaType = MediaType> {
  /** Calls any method: `raw.request("get", path, init)`. */
  request: <
    Method extends HttpMethod,
    Path extends PathsWithMethod<Paths, Method>,
    Init extends MaybeOptionalInit<At<Paths, Path>, Method & keyof At<Paths, Path>>,
  >(
    method: Method,
    url: Path,
    ...init: RawInit<Init>
  ) => Promise<RawResponse<At<At<Paths, Path>, Method>, Init, Media>>;
  /** Calls a GET endpoint. */
  GET: RawMethod<Paths, "get", Media>;
  /** Calls a PUT endpoint. */
  PUT: RawMethod<Paths, "put", Media>;
  /** Calls a POST endpoint. */
  POST: RawMethod<Paths, "post", Media>;
  /** Calls a DELETE endpoint. */
  DELETE: RawMethod<Paths, "delete", Media>;
  /** Calls an OPTIONS endpoint. */
  OPTIONS: RawMethod<Paths, "options", Media>;
  /** Calls a HEAD endpoint. */
  HEAD: RawMethod<Paths, "head", Media>;
  /** Calls a PATCH endpoint. */
  PATCH: RawMethod<Paths, "patch", Media>;
  /** Calls a TRACE endpoint. */
  TRACE: RawMethod<Paths, "trace", Media>;
  /** Registers middleware (runs after the client's own checks). */
  use(...middleware: Middleware[]): void;
  /** Unregisters middleware. */
  eject(...middleware: Middleware[]): void;
}
