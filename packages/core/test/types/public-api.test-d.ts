import { describe, expectTypeOf, it } from "vitest";
import {
  ApiError,
  RateLimitError,
  ValidationError,
  createTransport,
  paginate,
  paginateItems,
  requireOneOf,
  type ClientOptions,
  type LogEvent,
  type RequestOptions,
} from "../../src/index.js";

describe("public types", () => {
  it("instanceof narrows to the error class", () => {
    const error: unknown = undefined;
    if (error instanceof RateLimitError) {
      expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
      expectTypeOf(error.status).toEqualTypeOf<number>();
    }
    if (error instanceof ValidationError) {
      expectTypeOf(error.field).toEqualTypeOf<string>();
    }
    expectTypeOf(ApiError.from).returns.toEqualTypeOf<ApiError>();
  });

  it("options are checked", () => {
    // @ts-expect-error maxRetries is a number
    const bad: ClientOptions = { maxRetries: "2" };
    // @ts-expect-error unknown option
    const typo: RequestOptions = { timeout: 5 };
    expectTypeOf<RequestOptions["timeoutMs"]>().toEqualTypeOf<number | undefined>();
    void bad;
    void typo;
  });

  it("log events are a discriminated union", () => {
    const onEvent = (event: LogEvent): number | undefined =>
      event.type === "retry" ? event.delayMs : undefined;
    expectTypeOf(onEvent).returns.toEqualTypeOf<number | undefined>();
  });

  it("fetchFor returns something openapi-fetch accepts as fetch", () => {
    const transport = createTransport({
      options: {},
      defaultBaseUrl: "https://a.example",
      authorization: "Bearer x",
      userAgent: "ua",
    });
    expectTypeOf(transport.fetchFor(undefined, { idempotent: true })).toEqualTypeOf<typeof fetch>();
    expectTypeOf(transport.fetchFor(undefined, { idempotent: true })).toExtend<
      (input: Request) => Promise<Response>
    >();
  });

  it("pagination infers page and item types; requireOneOf narrows", () => {
    const pages = paginate(
      async (cursor) => ({ items: [cursor ?? ""], cursor }),
      (page) => page.cursor,
    );
    expectTypeOf(paginateItems(pages, (page) => page.items)).toEqualTypeOf<
      AsyncGenerator<string, void, undefined>
    >();
    expectTypeOf(requireOneOf("asc", "order", ["asc", "desc"])).toEqualTypeOf<"asc" | "desc">();
  });
});
