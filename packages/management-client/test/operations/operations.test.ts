import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ManagementClient } from "../../src/index.js";
import { operationTable } from "../../src/index.js";
import { clientFor } from "../support/client.js";
import { AUTHORIZATION } from "../support/fixtures.js";
import { cases, entries } from "../support/operation-cases.js";
import { startRecordingServer } from "../support/recording-server.js";
import type { RecordingServer } from "../support/recording-server.js";

/** The three acknowledgement forms the service is known to send. */
const ACKS: [string, { body: string; type: string }][] = [
  ['JSON "OK"', { body: '"OK"', type: "application/json" }],
  ["text OK", { body: "OK", type: "text/plain" }],
  ["empty body", { body: "", type: "application/json" }],
];

let server: RecordingServer;
let m: ManagementClient;

beforeAll(async () => {
  server = await startRecordingServer();
  m = clientFor(server);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("every operation of the spec has a case", () => {
  it("covers all 58 operations", () => {
    expect(Object.keys(cases).sort()).toEqual(Object.keys(operationTable).sort());
    expect(entries).toHaveLength(58);
  });
});

describe("each operation sends exactly the request the spec describes", () => {
  it.each(entries)("%s", async (id, c) => {
    server.reply(c.returns === undefined ? { body: '"OK"' } : { body: c.returns });
    await c.call(m);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe(c.method);
    expect(request?.method).toBe(operationTable[id].method);
    expect(request?.path).toBe(c.path);
    expect(request?.query).toEqual(c.query ?? {});
    expect(request?.headers.authorization).toBe(AUTHORIZATION);
    expect(request?.headers["user-agent"]).toMatch(
      /^@api-clients\/management-client\/\d+\.\d+\.\d+/,
    );
    if (c.body === undefined) {
      expect(request?.body).toBe("");
    } else {
      expect(request?.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(request?.body ?? "")).toEqual(c.body);
    }
  });
});

describe("record operations resolve to the parsed record", () => {
  const records = entries.filter(([, c]) => c.returns !== undefined);

  it("there are 28 of them", () => expect(records).toHaveLength(28));

  it.each(records)("%s", async (_id, c) => {
    server.reply({ body: c.returns });
    await expect(c.call(m)).resolves.toEqual(c.returns);
  });
});

describe('acknowledged operations resolve to undefined for each form of "OK"', () => {
  const acks = entries.filter(([, c]) => c.returns === undefined);

  it("there are 30 of them", () => expect(acks).toHaveLength(30));

  describe.each(ACKS)("%s", (_form, { body, type }) => {
    it.each(acks)("%s", async (_id, c) => {
      server.reply({ body, headers: { "content-type": type } });
      await expect(c.call(m)).resolves.toBeUndefined();
    });
  });
});
