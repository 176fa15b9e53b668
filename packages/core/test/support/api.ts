/**
 * A tiny API over the request pipeline for core's tests: a hand-written operation table (as codegen
 * would emit it) and its `paths` type, so `createApi` runs exactly as the clients run it, against the
 * fault-injecting test server.
 *
 * @example
 * const api = testApi(server.url, { maxRetries: 0 });
 * await api.request("getThing", {});
 * await api.raw.GET("/thing");
 */
import { checkRequest, createApi, type Api, type OperationSpec } from "../../src/internal.js";
import type { ClientOptions } from "../../src/index.js";

/** A token that must never leak anywhere; tests search every output for it. */
export const SECRET = "sk_test_TOPSECRET_0123456789";

/** The `User-Agent` the test API sends. */
export const USER_AGENT = "@api-clients/core-test/0.0.0";

/** A thing as the test server returns it (any object passes; unknown fields are kept). */
export interface Thing {
  id?: number | string;
  name?: string;
  items?: number[];
  cursor?: string;
}

interface JsonContent<T> {
  headers: Record<string, unknown>;
  content: { "application/json": T };
}

/** One operation as openapi-typescript emits it (`requestBody?: never` when there is none). */
type Operation<Params, Body, Data> = {
  parameters: Params;
  responses: { 200: JsonContent<Data>; default: JsonContent<{ error: string }> };
} & ([Body] extends [never] ? { requestBody?: never } : { requestBody: Body });

type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type Unused = {
  put?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};

/** The `paths` type openapi-typescript would generate for {@link operations}. */
export interface paths {
  "/thing": Unused & {
    parameters: NoParams;
    get: Operation<
      {
        query?: { cursor?: string; count?: number };
        header?: never;
        path?: never;
        cookie?: never;
      },
      never,
      Thing
    >;
    post?: never;
  };
  "/items": Unused & {
    parameters: NoParams;
    get: Operation<NoParams, never, Thing[]>;
    post?: never;
  };
  "/items/{id}": Unused & {
    parameters: NoParams;
    get: Operation<
      { query?: never; header?: never; path: { id: string }; cookie?: never },
      never,
      Thing
    >;
    post?: never;
  };
  "/things": Unused & {
    parameters: NoParams;
    get?: never;
    post: Operation<NoParams, { content: { "application/json": { name: string } } }, Thing>;
  };
  "/toggle/{id}": Unused & {
    parameters: NoParams;
    get?: never;
    post: Operation<
      { query?: never; header?: never; path: { id: string }; cookie?: never },
      never,
      string
    >;
  };
}

const id = { name: "id", in: "path", required: true, schema: { type: "string" } } as const;

/** The operation table: GET is idempotent, `POST /things` is not, `POST /toggle/{id}` is (by the spec). */
export const operations = {
  getThing: {
    method: "GET",
    path: "/thing",
    idempotent: true,
    success: "object",
    params: [
      { name: "cursor", in: "query", required: false, schema: { type: "string" } },
      {
        name: "count",
        in: "query",
        required: false,
        schema: { type: "integer", minimum: 1, maximum: 1000 },
      },
    ],
  },
  listItems: { method: "GET", path: "/items", idempotent: true, success: "array", params: [] },
  getItem: {
    method: "GET",
    path: "/items/{id}",
    idempotent: true,
    success: "object",
    params: [id],
  },
  createThing: {
    method: "POST",
    path: "/things",
    idempotent: false,
    success: "object",
    params: [],
    body: {
      required: true,
      schema: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    },
  },
  toggle: {
    method: "POST",
    path: "/toggle/{id}",
    idempotent: true,
    success: "acknowledgement",
    alreadyApplied: "already enabled",
    params: [id],
  },
} satisfies Record<string, OperationSpec>;

/** Creates the test API against `baseUrl` (override any option). */
export function testApi(baseUrl: string, options: ClientOptions = {}): Api<paths> {
  return createApi<paths>({
    api: "test",
    options: { baseUrl, ...options },
    defaultBaseUrl: "https://example.invalid",
    authorization: `Bearer ${SECRET}`,
    secrets: [SECRET],
    userAgent: USER_AGENT,
    operations,
    check: checkRequest,
  });
}

export { rejection } from "./rejection.js";

/** Runs `fn` and returns what it threw (fails the test if it returns). */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the function to throw, but it returned");
}
