// One request path (issue #10, design point 2): the same fault script gives the same attempts and the
// same outcome through `logs.list()`, a management method (`databases.rename`, idempotent per the
// spec), and `raw` of each client. For `raw` an HTTP error arrives as `{ error, response }` with the
// same status; connection-level failures throw the same classes.
import { ApiError, ConnectionError, InvalidResponseError, TimeoutError } from "@api-clients/core";
import { describe, expect, it } from "vitest";
import {
  useTestServer,
  RENAMED,
  logsAt,
  managementAt,
  type ScriptedResponse,
} from "../support/both-clients.js";

const server = useTestServer();

/** What a call came to, the same shape whatever surface made it. */
type Outcome =
  { result: "ok" } | { result: "http error"; status: number } | { result: "thrown"; error: string };

function thrownOutcome(error: unknown): Outcome {
  if (error instanceof ApiError && !(error instanceof InvalidResponseError)) {
    return { result: "http error", status: error.status };
  }
  const known = [InvalidResponseError, TimeoutError, ConnectionError].find(
    (c) => error instanceof c,
  );
  return { result: "thrown", error: known?.name ?? String(error) };
}

async function ergonomic(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    await call();
    return { result: "ok" };
  } catch (error) {
    return thrownOutcome(error);
  }
}

async function raw(call: () => Promise<{ error?: unknown; response: Response }>): Promise<Outcome> {
  try {
    const { error, response } = await call();
    if (error !== undefined || !response.ok)
      return { result: "http error", status: response.status };
    return { result: "ok" };
  } catch (error) {
    return thrownOutcome(error);
  }
}

// 1 s: long enough for every answer on a busy machine, so only the stalls and hangs time out.
const options = { timeoutMs: 1_000, maxRetries: 2 };
const RENAME_BODY = { name: "renamed" };

/** The four surfaces, each with the 200 body its operation promises. */
const surfaces: Array<[string, unknown, (url: string) => Promise<Outcome>]> = [
  ["logs.list()", { events: [] }, (url) => ergonomic(() => logsAt(url, options).list())],
  ["logs.raw.GET", { events: [] }, (url) => raw(() => logsAt(url, options).raw.GET("/v2/logs"))],
  [
    "m.databases.rename()",
    RENAMED,
    (url) => ergonomic(() => managementAt(url, options).databases.rename("db1", RENAME_BODY)),
  ],
  [
    "m.raw.POST rename",
    RENAMED,
    (url) =>
      raw(() =>
        managementAt(url, options).raw.POST("/v2/redis/rename/{id}", {
          params: { path: { id: "db1" } },
          body: RENAME_BODY,
        }),
      ),
  ],
];

const SOON = { "retry-after-ms": "5" };
const PAD = "x".repeat(2_000);

/** The fault script: replies in order (`ok` is the surface's 200), the outcome and attempts expected. */
const script: Array<[string, (ok: ScriptedResponse) => ScriptedResponse[], Outcome, number]> = [
  ["503 then 200", (ok) => [{ status: 503, headers: SOON }, ok], { result: "ok" }, 2],
  [
    "429 with retry-after-ms then 200",
    (ok) => [{ status: 429, headers: { "retry-after-ms": "20" } }, ok],
    { result: "ok" },
    2,
  ],
  [
    "reset mid-body then 200",
    (ok) => [{ status: 200, body: { pad: PAD }, resetAfterBytes: 100 }, ok],
    { result: "ok" },
    2,
  ],
  [
    "stalled body then 200",
    (ok) => [{ status: 200, body: { pad: PAD }, stallAfterBytes: 100 }, ok],
    { result: "ok" },
    2,
  ],
  [
    "malformed JSON 200",
    () => [{ status: 200, body: '{"events": [', headers: { "content-type": "application/json" } }],
    { result: "thrown", error: "InvalidResponseError" },
    1,
  ],
  [
    "307 redirect then 200",
    (ok) => [{ status: 307, headers: { location: "/moved-here" } }, ok],
    { result: "ok" },
    2,
  ],
  [
    "503 three times",
    () =>
      Array.from({ length: 3 }, () => ({ status: 503, headers: SOON, body: { error: "busy" } })),
    { result: "http error", status: 503 },
    3,
  ],
  [
    "429 over the 60 s cap",
    () => [{ status: 429, headers: { "retry-after": "120" }, body: { error: "slow down" } }],
    { result: "http error", status: 429 },
    1,
  ],
  [
    "404",
    () => [{ status: 404, body: { error: "not found" } }],
    { result: "http error", status: 404 },
    1,
  ],
  [
    "reset before any response, three times",
    () => Array.from({ length: 3 }, () => ({ reset: true })),
    { result: "thrown", error: "ConnectionError" },
    3,
  ],
  [
    "no response within timeoutMs, three times",
    () => Array.from({ length: 3 }, () => ({ hang: true })),
    { result: "thrown", error: "TimeoutError" },
    3,
  ],
];

describe("the same fault script through every surface", () => {
  describe.each(script)("%s", (_name, replies, want, attempts) => {
    it.each(surfaces)("%s", async (_surface, okBody, send) => {
      server.enqueue(...replies({ status: 200, body: okBody }));
      const outcome = await send(server.url);
      expect(outcome).toEqual(want);
      expect(server.requests).toHaveLength(attempts);
    });
  });

  it("a redirect reaches its target with the same method, body and credentials (same origin)", async () => {
    for (const [surface, okBody, send] of surfaces) {
      server.reset();
      server.enqueue(
        { status: 307, headers: { location: "/moved-here" } },
        { status: 200, body: okBody },
      );
      expect(await send(server.url), surface).toEqual({ result: "ok" });
      const [first, second] = server.requests;
      expect(second?.path, surface).toBe("/moved-here");
      expect(second?.method, surface).toBe(first?.method);
      expect(second?.body, surface).toBe(first?.body);
      expect(second?.headers.authorization, surface).toBe(first?.headers.authorization);
    }
  });
});
