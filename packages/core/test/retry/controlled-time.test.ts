// Issue #30, item 6: the request path reads the time and waits through an injected clock, so a test
// of a wait asserts the exact wait without sleeping.
import { describe, expect, it } from "vitest";
import { checkRequest, createApi } from "../../src/internal.js";
import { DeadlineExceededError } from "../../src/index.js";
import { operations, SECRET, USER_AGENT, rejection, type paths } from "../support/api.js";
import { useTestServer } from "../support/test-server.js";

const server = useTestServer();

/** A clock that starts at a fixed instant and moves only when the request path waits. */
function controlledClock() {
  let now = Date.UTC(2026, 0, 1);
  const waits: number[] = [];
  return {
    waits,
    clock: {
      now: () => now,
      sleep: async (ms: number) => {
        waits.push(ms);
        now += ms;
      },
    },
  };
}

function api(clock: ReturnType<typeof controlledClock>["clock"], deadlineMs?: number) {
  return createApi<paths>({
    api: "test",
    options: { baseUrl: server.url, ...(deadlineMs === undefined ? {} : { deadlineMs }) },
    defaultBaseUrl: "https://example.invalid",
    authorization: `Bearer ${SECRET}`,
    secrets: [SECRET],
    userAgent: USER_AGENT,
    operations,
    check: checkRequest,
    clock,
  });
}

describe("waits on a controlled clock", () => {
  it("waits exactly what Retry-After and retry-after-ms ask, in order", async () => {
    server.enqueue(
      { status: 503, headers: { "retry-after": "3" } },
      { status: 429, headers: { "retry-after-ms": "1250" } },
      { status: 200, body: {} },
    );
    const { clock, waits } = controlledClock();
    await api(clock).request("getThing");
    expect(waits).toEqual([3000, 1250]);
    expect(server.requests).toHaveLength(3);
  });

  it("does not start a wait that would end after the deadline: no sleep at all", async () => {
    server.enqueue({ status: 503, headers: { "retry-after": "5" } });
    const { clock, waits } = controlledClock();
    const error = await rejection(api(clock, 4_000).request("getThing"));
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect((error as Error).message).toContain("deadlineMs");
    expect(error).not.toBeInstanceOf(DeadlineExceededError);
  });
});
