// `api-clients logs message <id>`: a message's history oldest first, whatever order the server lists
// it in. The emulator simulates the message (CREATED → ACTIVE → ERROR → RETRY → ACTIVE → DELIVERED);
// a small proxy in front of it changes how the server answers: oldest first (`order=earliestFirst`
// added), each page shuffled, or the messageId filter ignored.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/index.js";

type Mode = "as-is" | "oldest-first" | "shuffled" | "no-filter";
let emu: Emulator;
let proxy: Server;
let proxyUrl: string;
let mode: Mode = "as-is";

/** A deterministic shuffle (the same permutation every run). */
function shuffle<T>(items: T[]): T[] {
  let seed = 7;
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: 2_000, seed: 4 });
  proxy = createServer((req, res) => {
    const url = new URL(req.url ?? "/", emu.url);
    if (mode === "oldest-first") url.searchParams.set("order", "earliestFirst");
    if (mode === "no-filter") url.searchParams.delete("messageId");
    void fetch(url, { headers: { authorization: req.headers.authorization ?? "" } }).then(
      async (upstream) => {
        const body = (await upstream.json()) as { events?: unknown[] };
        if (mode === "shuffled" && Array.isArray(body.events)) body.events = shuffle(body.events);
        res.writeHead(upstream.status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      },
    );
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
beforeEach(() => {
  emu.reset();
  mode = "as-is";
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await emu.close();
});

async function message(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
  stderr.setEncoding("utf8").on("data", (d: string) => (err += d));
  const code = await run(["logs", "message", ...args, "--base-url", proxyUrl], {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: { QSTASH_TOKEN: emu.credentials.logsToken },
  });
  return { code, stdout: out, stderr: err };
}

const LIFE = ["CREATED", "ACTIVE", "ERROR", "RETRY", "ACTIVE", "DELIVERED"];
const MODES: Mode[] = ["as-is", "oldest-first", "shuffled"];

describe("api-clients logs message", () => {
  for (const served of MODES) {
    it(`server ${served}: the six states oldest first, one line each, with the time between them, the destination, the status and the error`, async () => {
      const { messageId, entries } = emu.logs.simulateMessage({
        outcome: "delivered",
        retries: 1,
        url: "https://hooks.example.com/orders",
        stepMs: 1_500,
      });
      expect(entries.map((e) => e.state)).toEqual(LIFE);
      mode = served;
      const result = await message([messageId]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe("");
      const [title, header, ...rows] = result.stdout.trimEnd().split("\n");
      expect(title).toBe(`${messageId}: 6 states over 7.5 s, now DELIVERED`);
      expect(header).toMatch(/^TIME\s+SINCE PREVIOUS\s+STATE\s+DESTINATION\s+STATUS\s+ERROR$/);
      expect(rows.map((r) => r.split(/\s+/)[r.split(/\s+/)[1]!.startsWith("+") ? 3 : 1])).toEqual(
        LIFE,
      );
      expect(rows[0]!.split(/\s+/)[1]).toBe("CREATED"); // no time before the first state
      for (const row of rows.slice(1)) expect(row).toContain("+1.5 s");
      for (const row of rows) expect(row).toContain("https://hooks.example.com/orders");
      // The failed attempt's status and error, and the delivery's status.
      const error = entries[2] as { responseStatus?: number; error?: string };
      if (error.responseStatus !== undefined)
        expect(rows[2]).toContain(` ${error.responseStatus} `);
      expect(rows[2]).toContain(String(error.error).slice(0, 10));
      expect(rows[5]).toMatch(/DELIVERED\s+https:\/\/hooks\.example\.com\/orders\s+20\d/);
    });
  }

  it("--json: states oldest first with sincePreviousMs, over several pages, for every server order", async () => {
    // 2 + 60 × 3 + 2 entries: two pages of the default page size.
    const { messageId, entries } = emu.logs.simulateMessage({ outcome: "delivered", retries: 60 });
    expect(entries.length).toBeGreaterThan(100);
    for (const served of MODES) {
      mode = served;
      const result = await message([messageId, "--json"]);
      expect(result.code, result.stderr).toBe(0);
      const history = JSON.parse(result.stdout) as {
        messageId: string;
        states: { state: string; time: number; sincePreviousMs: number | null }[];
        entries: { time: number; state: string }[];
      };
      expect(history.messageId).toBe(messageId);
      expect(history.states.map((s) => `${s.time}|${s.state}`)).toEqual(
        entries.map((e) => `${e.time}|${e.state}`),
      );
      expect(history.states[0]!.sincePreviousMs).toBeNull();
      expect(history.states.slice(1).map((s) => s.sincePreviousMs)).toEqual(
        entries.slice(1).map((e, i) => Number(e.time) - Number(entries[i]!.time)),
      );
      expect(history.entries.map((e) => e.state)).toEqual(entries.map((e) => e.state));
    }
  });

  it("states of the same millisecond keep the server's sequence, newest-first or oldest-first", async () => {
    const { messageId } = emu.logs.simulateMessage({ outcome: "delivered", retries: 1, stepMs: 0 });
    for (const served of ["as-is", "oldest-first"] as const) {
      mode = served;
      const result = await message([messageId, "--json"]);
      expect(result.code, result.stderr).toBe(0);
      const { states } = JSON.parse(result.stdout) as { states: { state: string }[] };
      expect(states.map((s) => s.state)).toEqual(LIFE);
    }
  });

  it("a server that ignores the filter: the other messages are left out, with a warning", async () => {
    const { messageId } = emu.logs.simulateMessage({ outcome: "failed", retries: 2 });
    mode = "no-filter";
    const result = await message([messageId, "--json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/returned [\d,]+ entries of other messages; left out/);
    const { states } = JSON.parse(result.stdout) as { states: { state: string }[] };
    expect(states.map((s) => s.state)).toEqual([
      "CREATED",
      "ACTIVE",
      "ERROR",
      "RETRY",
      "ACTIVE",
      "ERROR",
      "FAILED",
    ]);
  });

  it("an unknown id exits 1 and says so; server text never reaches the terminal as control characters", async () => {
    const missing = await message(["msg_not_there"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no log entries for message msg_not_there/);

    emu.logs.append([
      { messageId: "msg_evil", state: "CREATED", url: "https://x.example/\u001b[2J" },
      { messageId: "msg_evil", state: "ERROR", error: "boom \u001b]52;c;ZXZpbA==\u0007" },
    ]);
    const evil = await message(["msg_evil"]);
    expect(evil.code, evil.stderr).toBe(0);
    expect(evil.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(evil.stdout).toContain("boom \\x1b]52;c;ZXZpbA==\\x07");
  });
});
