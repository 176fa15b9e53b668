// The base URL comes from the `baseUrl` option, else `UPSTASH_API_URL`, else the public service:
// checked over HTTP against the emulator.
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createManagementClient,
  DEFAULT_MANAGEMENT_BASE_URL,
  ValidationError,
} from "../../src/index.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());
afterEach(() => vi.unstubAllEnvs());

/** A loopback URL nothing listens on: a request sent there fails. */
const NOWHERE = "http://127.0.0.1:9";
const credentials = () => ({ email: emu.credentials.email, apiKey: emu.credentials.apiKey });
const shownBaseUrl = (client: object) =>
  (JSON.parse(JSON.stringify(client)) as { baseUrl: string }).baseUrl;

describe("UPSTASH_API_URL", () => {
  it("is where a client without baseUrl sends its requests", async () => {
    vi.stubEnv("UPSTASH_API_URL", emu.url);
    const client = createManagementClient({ ...credentials(), maxRetries: 0 });
    const created = await client.databases.create({
      name: "from-env",
      primary_region: "eu-west-1",
    });
    expect(created.database_name).toBe("from-env");
    expect((await client.databases.list()).map((db) => db.database_name)).toEqual(["from-env"]);
    expect(shownBaseUrl(client)).toBe(emu.url);
  });

  it("is read with UPSTASH_EMAIL and UPSTASH_API_KEY: a client with no options reaches the emulator", async () => {
    vi.stubEnv("UPSTASH_API_URL", `${emu.url}/v2`);
    vi.stubEnv("UPSTASH_EMAIL", emu.credentials.email);
    vi.stubEnv("UPSTASH_API_KEY", emu.credentials.apiKey);
    expect(Array.isArray(await createManagementClient().teams.list())).toBe(true);
  });

  it("gives way to an explicit baseUrl", async () => {
    vi.stubEnv("UPSTASH_API_URL", NOWHERE);
    const client = createManagementClient({ ...credentials(), baseUrl: emu.url, maxRetries: 0 });
    expect(Array.isArray(await client.databases.list())).toBe(true);
  });

  it.each([
    ["unset", undefined],
    ["empty", ""],
  ])("%s: the public service's URL", (_, value) => {
    vi.stubEnv("UPSTASH_API_URL", value);
    expect(shownBaseUrl(createManagementClient(credentials()))).toBe(DEFAULT_MANAGEMENT_BASE_URL);
  });

  it.each([
    ["not a URL", "api.example", "must be an absolute URL"],
    ["plain http to a remote host", "http://api.example", "must use https"],
    ["a query", "https://api.example/?x=1", "must not contain a query or fragment"],
  ])("%s: a ValidationError naming UPSTASH_API_URL, not baseUrl", (_, value, rule) => {
    vi.stubEnv("UPSTASH_API_URL", value);
    const error = (() => {
      try {
        createManagementClient(credentials());
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe("UPSTASH_API_URL");
    expect((error as ValidationError).message).toContain(rule);
  });
});
