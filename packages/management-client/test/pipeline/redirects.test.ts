// Issue #12, item 4: a 307/308 redirect of a request with a body reaches its target with the same
// method and body, and the credentials are never sent to another origin (127.0.0.1 and localhost are
// different origins, each served by its own test server).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  RENAMED,
  logsAt,
  managementAt,
  startTestServer,
  type TestServer,
} from "../support/both-clients.js";

let origin: TestServer;
let target: TestServer;
/** The target server under another origin (`localhost` instead of `127.0.0.1`). */
let elsewhere: string;
beforeAll(async () => {
  [origin, target] = await Promise.all([startTestServer(), startTestServer()]);
  elsewhere = target.url.replace("127.0.0.1", "localhost");
});
afterAll(() => Promise.all([origin.close(), target.close()]));
beforeEach(() => {
  origin.reset();
  target.reset();
});

const RENAME = { name: "renamed" };

describe.each([307, 308])("a %i redirect", (status) => {
  it("of a POST with a body reaches the target with the same method and body", async () => {
    origin.enqueue(
      { status, headers: { location: "/v2/redis/rename/other" } },
      { status: 200, body: RENAMED },
    );
    const m = managementAt(origin.url);
    expect(await m.databases.rename("db1", RENAME)).toEqual(RENAMED);
    expect(origin.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ["POST", "/v2/redis/rename/db1", '{"name":"renamed"}'],
      ["POST", "/v2/redis/rename/other", '{"name":"renamed"}'],
    ]);
  });

  it("to another origin carries the method and body but not the Basic credentials", async () => {
    origin.enqueue({ status, headers: { location: `${elsewhere}/v2/redis/rename/db1` } });
    target.enqueue({ status: 200, body: RENAMED });
    const m = managementAt(origin.url, { headers: { "x-team": "blue" } });
    expect(await m.databases.rename("db1", RENAME)).toEqual(RENAMED);
    expect(origin.requests[0]?.headers.authorization).toMatch(/^Basic /);
    const arrived = target.requests[0];
    expect(arrived).toMatchObject({ method: "POST", body: '{"name":"renamed"}' });
    expect(arrived?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(arrived?.headers)).not.toContain(
      origin.requests[0]?.headers.authorization?.slice("Basic ".length),
    );
  });

  it("to another origin never carries the bearer token (raw, and the logs client)", async () => {
    origin.enqueue({ status, headers: { location: `${elsewhere}/v2/logs` } });
    target.enqueue({ status: 200, body: { events: [] } });
    const { data } = await logsAt(origin.url).raw.GET("/v2/logs");
    expect(data).toEqual({ events: [] });
    expect(target.requests[0]?.headers.authorization).toBeUndefined();

    origin.enqueue({ status, headers: { location: `${elsewhere}/v2/logs` } });
    target.enqueue({ status: 200, body: { events: [] } });
    await logsAt(origin.url).list();
    expect(target.requests[1]?.headers.authorization).toBeUndefined();
  });

  it("that loops ends with a ConnectionError, never sending the credentials elsewhere", async () => {
    origin.setHandler(() => ({ status, headers: { location: `${elsewhere}/loop` } }));
    target.setHandler(() => ({ status, headers: { location: `${origin.url}/loop` } }));
    try {
      const error = await logsAt(origin.url, { maxRetries: 0 })
        .list()
        .catch((e: unknown) => e);
      expect((error as Error).name).toBe("ConnectionError");
      expect((error as Error).message).toContain("Too many redirects");
      expect((error as Error).message).toContain("a redirect loop, not retried");
      expect(target.requests.length).toBeGreaterThan(0);
      for (const request of target.requests) expect(request.headers.authorization).toBeUndefined();
    } finally {
      origin.setHandler(undefined);
      target.setHandler(undefined);
    }
  });
});
