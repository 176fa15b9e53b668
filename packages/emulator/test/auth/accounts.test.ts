// Issue #12 item 17: accounts are checked at start, and Basic auth never accepts an empty password.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Emulator } from "../../src/index.js";
import { ALICE, start } from "../helpers.js";
import { send } from "../raw-http.js";

describe("startEmulator() refuses accounts that could not work, without echoing secrets", () => {
  it.each([
    [[{ email: "a@x.io", apiKey: "" }], /^accounts\[0\]\.apiKey: must be a non-empty string$/],
    [[ALICE, { email: "b:c@x.io", apiKey: "k" }], /^accounts\[1\]\.email: must not contain ":"/],
    [[{ email: "", apiKey: "k" }], /^accounts\[0\]\.email: must be a non-empty string/],
    [[{ email: "a b@x.io", apiKey: "k" }], /^accounts\[0\]\.email: /],
    [[{ email: "a@x.io", apiKey: "line\nbreak" }], /^accounts\[0\]\.apiKey: must not contain/],
    [
      [ALICE, { email: ALICE.email, apiKey: "other-key" }],
      /^accounts\[1\]\.email: is given twice$/,
    ],
    [[{ email: "a@x.io" }], /^accounts\[0\]\.apiKey: /],
  ])("%j", async (accounts, message) => {
    const err = await startEmulator({ accounts: accounts as never }).then(
      (emu) => emu.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TypeError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain("other-key");
    expect((err as Error).message).not.toContain("line");
  });

  it("refuses an empty logs token", async () => {
    await expect(startEmulator({ logsToken: "" })).rejects.toThrow(/^logsToken: /);
  });
});

describe("Basic auth never accepts an empty password", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await start();
  });
  afterAll(() => emu.close());

  const basic = (userPass: string) =>
    send(emu.url, "/v2/redis/databases", {
      headers: { authorization: `Basic ${Buffer.from(userPass).toString("base64")}` },
    });

  it.each([ALICE.email, `${ALICE.email}:`, ":", ""])("refuses %j with 401", async (userPass) => {
    expect((await basic(userPass)).status).toBe(401);
  });

  it("accepts the real pair", async () => {
    expect((await basic(`${ALICE.email}:${ALICE.apiKey}`)).status).toBe(200);
  });
});
