// The base URL comes from the `baseUrl` option, else `QSTASH_URL` (the name the official SDK reads),
// else the public service: checked over HTTP against the emulator.
import { inspect } from "node:util";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogsClient, DEFAULT_LOGS_BASE_URL, ValidationError } from "../../src/index.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 3 });
});
afterAll(() => emu.close());
afterEach(() => vi.unstubAllEnvs());

/** A loopback URL nothing listens on: a request sent there fails. */
const NOWHERE = "http://127.0.0.1:9";
const token = () => emu.credentials.logsToken;

describe("QSTASH_URL", () => {
  it("is where a client without baseUrl sends its requests", async () => {
    vi.stubEnv("QSTASH_URL", emu.url);
    const page = await createLogsClient({ token: token(), maxRetries: 0 }).list();
    expect(page.events).toHaveLength(3);
    expect(inspect(createLogsClient({ token: token() }))).toBe(
      `LogsClient { baseUrl: '${emu.url}' }`,
    );
  });

  it("is read with QSTASH_TOKEN: a client with no options at all reaches the emulator", async () => {
    vi.stubEnv("QSTASH_URL", `${emu.url}/v2`);
    vi.stubEnv("QSTASH_TOKEN", token());
    expect((await createLogsClient().list({ count: 2 })).events).toHaveLength(2);
  });

  it("gives way to an explicit baseUrl", async () => {
    vi.stubEnv("QSTASH_URL", NOWHERE);
    const page = await createLogsClient({ token: token(), baseUrl: emu.url, maxRetries: 0 }).list();
    expect(page.events).toHaveLength(3);
  });

  it.each([
    ["unset", undefined],
    ["empty", ""],
  ])("%s: the public service's URL", (_, value) => {
    vi.stubEnv("QSTASH_URL", value);
    expect(inspect(createLogsClient({ token: token() }))).toBe(
      `LogsClient { baseUrl: '${DEFAULT_LOGS_BASE_URL}' }`,
    );
  });

  it.each([
    ["not a URL", "qstash.example", "must be an absolute URL"],
    ["plain http to a remote host", "http://qstash.example", "must use https"],
    ["credentials in it", "https://user:pw@qstash.example", "must not contain credentials"],
  ])("%s: a ValidationError naming QSTASH_URL, not baseUrl", (_, value, rule) => {
    vi.stubEnv("QSTASH_URL", value);
    const error = (() => {
      try {
        createLogsClient({ token: token() });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("QSTASH_URL");
    expect((error as ValidationError).message).toContain(rule);
  });

  it("is checked as baseUrl is (allowInsecureHttp applies)", async () => {
    vi.stubEnv("QSTASH_URL", "http://qstash.example");
    expect(inspect(createLogsClient({ token: token(), allowInsecureHttp: true }))).toBe(
      `LogsClient { baseUrl: 'http://qstash.example' }`,
    );
  });
});
