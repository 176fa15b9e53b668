import { describe, expectTypeOf, it } from "vitest";
import {
  AbortError,
  ApiError,
  ConnectionError,
  RateLimitError,
  ValidationError,
  type ClientOptions,
  type LogEvent,
  type RequestOptions,
} from "../../src/index.js";
import * as core from "../../src/index.js";
import { paginate, paginateItems, type Api } from "../../src/internal.js";
import { testApi, type Thing, type paths } from "../support/api.js";

describe("public types", () => {
  it("instanceof narrows to the error class", () => {
    const error: unknown = undefined;
    if (error instanceof RateLimitError) {
      expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
      expectTypeOf(error.status).toEqualTypeOf<number>();
      expectTypeOf(error.attempts).toEqualTypeOf<number>();
    }
    if (error instanceof ConnectionError) {
      expectTypeOf(error.attempts).toEqualTypeOf<number>();
    }
    if (error instanceof ValidationError) {
      expectTypeOf(error.field).toEqualTypeOf<string>();
    }
    if (error instanceof AbortError) {
      expectTypeOf(error.cause).toEqualTypeOf<unknown>();
    }
    expectTypeOf(ApiError.from).returns.toEqualTypeOf<ApiError>();
  });

  it("the public entry point has no transport or helpers any more", () => {
    // @ts-expect-error createApi lives in @api-clients/core/internal
    void core.createApi;
    // @ts-expect-error paginate lives in @api-clients/core/internal
    void core.paginate;
    // @ts-expect-error the transport is gone
    void core.createTransport;
    expectTypeOf(core.MAX_RETRY_AFTER_MS).toEqualTypeOf<number>();
  });

  it("options are checked", () => {
    // @ts-expect-error maxRetries is a number
    const bad: ClientOptions = { maxRetries: "2" };
    // @ts-expect-error unknown option
    const typo: RequestOptions = { timeout: 5 };
    expectTypeOf<RequestOptions["timeoutMs"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RequestOptions["signal"]>().toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf<ClientOptions["headers"]>().toEqualTypeOf<HeadersInit | undefined>();
    expectTypeOf<ClientOptions["maxResponseBytes"]>().toEqualTypeOf<number | undefined>();
    void bad;
    void typo;
  });

  it("log events are a discriminated union", () => {
    const onEvent = (event: LogEvent): number | undefined =>
      event.type === "retry" ? event.delayMs : undefined;
    expectTypeOf(onEvent).returns.toEqualTypeOf<number | undefined>();
  });

  it("createApi's raw is the typed openapi-fetch client of the paths", async () => {
    const api = testApi("http://127.0.0.1:1");
    expectTypeOf(api).toEqualTypeOf<Api<paths>>();
    expectTypeOf(api.raw).toEqualTypeOf<core.RawClient<paths>>();
    const { data } = await api.raw.GET("/items/{id}", { params: { path: { id: "a" } } });
    expectTypeOf(data).toEqualTypeOf<Thing | undefined>();
    // @ts-expect-error the path parameter is required
    void api.raw.GET("/items/{id}", {});
    // @ts-expect-error the body has a required name
    void api.raw.POST("/things", { body: {} });
    expectTypeOf(api.request<Thing>("getThing", {})).toEqualTypeOf<Promise<Thing>>();
  });

  it("pagination infers page and item types", () => {
    const pages = paginate(async (cursor) => ({ items: [cursor ?? ""], cursor }), {
      next: (page) => page.cursor,
      count: (page) => page.items.length,
    });
    expectTypeOf(paginateItems(pages, (page) => page.items)).toEqualTypeOf<
      AsyncGenerator<string, void, undefined>
    >();
  });
});
