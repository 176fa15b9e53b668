// The logs API's burst limit and daily quota: per token, the service's headers on every answer and on
// the 429; the management API states none; the same limits from the command line.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nextBurstWindow, startEmulator, type Emulator } from "../../src/index.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ seedLogs: 5, burstLimit: 3, dailyQuota: 5 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const list = (e: Emulator, query = "count=1", token = e.credentials.logsToken) =>
  fetch(`${e.url}/v2/logs?${query}`, { headers: { authorization: `Bearer ${token}` } });

describe("startEmulator({ burstLimit, dailyQuota })", () => {
  it("states both windows on every answer, counts down, and refuses past the burst limit with 429", async () => {
    await nextBurstWindow();
    const second = Math.floor(Date.now() / 1000);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await list(emu));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get("burst-ratelimit-remaining"))).toEqual([
      "2",
      "1",
      "0",
      "0",
    ]);
    for (const a of answers) {
      expect(a.headers.get("burst-ratelimit-limit")).toBe("3");
      expect(a.headers.get("burst-ratelimit-reset")).toBe(String(second + 1));
      expect(a.headers.get("ratelimit-limit")).toBe("5");
      expect(a.headers.get("ratelimit-reset")).toBe(
        String(Math.ceil((Date.now() + 1) / 86_400_000) * 86_400),
      );
      expect(a.headers.has("retry-after")).toBe(false);
    }
    expect(answers.map((a) => a.headers.get("ratelimit-remaining"))).toEqual(["4", "3", "2", "2"]);
    expect(await answers[3]!.json()).toEqual({
      error: "rate limit: burst limit of 3 requests per second reached",
      code: "TOO_MANY_REQUESTS",
      message: "rate limit: burst limit of 3 requests per second reached",
    });
    expect(emu.rateLimits).toEqual({ accepted: 3, refused: 1 });
  });

  it("refuses past the daily quota with RateLimit-Remaining: 0, whatever the burst window", async () => {
    for (let i = 0; i < 5; i++) {
      if (i === 3) await nextBurstWindow();
      expect((await list(emu)).status).toBe(200);
    }
    await nextBurstWindow();
    const refused = await list(emu);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(await refused.json()).toEqual({
      error: "rate limit: daily quota of 5 requests used up",
      code: "TOO_MANY_REQUESTS",
      message: "rate limit: daily quota of 5 requests used up",
    });
  });

  it("an answer that is not a page (a 400) carries the headers too", async () => {
    const bad = await list(emu, "count=0");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("burst-ratelimit-limit")).toBe("3");
  });

  it("counts per token, and not the management API", async () => {
    const other = await startEmulator({ burstLimit: 1, logsToken: "tok-a" });
    try {
      expect((await list(other, "count=1", "tok-a")).status).toBe(200);
      const basic = Buffer.from(`${other.credentials.email}:${other.credentials.apiKey}`);
      const m = await fetch(`${other.url}/v2/redis/databases`, {
        headers: { authorization: `Basic ${basic.toString("base64")}` },
      });
      expect(m.status).toBe(200);
      expect(m.headers.has("burst-ratelimit-limit")).toBe(false);
    } finally {
      await other.close();
    }
  });

  it.each([0, -1, 1.5, Number.NaN])("rejects burstLimit %s", async (value) => {
    await expect(startEmulator({ burstLimit: value })).rejects.toThrow(
      "burstLimit: must be an integer >= 1 (requests per second)",
    );
  });
});

it("the command line takes --burst-limit and --daily-quota", async () => {
  const cli = fileURLToPath(new URL("../../dist/cli.js", import.meta.url));
  const child = spawn(
    process.execPath,
    [cli, "--port", "0", "--logs-token", "t", "--burst-limit", "2", "--daily-quota", "9"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  try {
    let out = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const m = /^export QSTASH_URL=(\S+)$/m.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on("exit", () => reject(new Error(`exited early: ${out}`)));
    });
    const answer = await fetch(`${url}/v2/logs?count=1`, {
      headers: { authorization: "Bearer t" },
    });
    expect(answer.headers.get("burst-ratelimit-limit")).toBe("2");
    expect(answer.headers.get("ratelimit-limit")).toBe("9");
    expect(answer.headers.get("ratelimit-remaining")).toBe("8");
  } finally {
    child.kill("SIGTERM");
  }
});
