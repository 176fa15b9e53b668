import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli, startCli } from "../support/cli.js";
import { parseCsv } from "../support/csv.js";
import { entryKey, target } from "../support/emulator.js";

// 200,000 generated entries, plus a few whose text fields hold commas, quotes and newlines.
const SEEDED = 200_000;
const TRICKY = [
  {
    state: "FAILED",
    messageId: "msg_csv_1",
    body: 'a,b,"c"\r\nsecond line',
    error: "500, then 502",
  },
  {
    state: "DELIVERED",
    messageId: "msg_csv_2",
    body: "line one\nline two\n",
    url: "https://x.example/a,b",
  },
  { state: "ERROR", messageId: "msg_csv_3", body: '"', error: "" },
];

let emu: Emulator;
let cli: ReturnType<typeof target>;
let dir: string;
let total: number;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seedLogs: SEEDED, seed: 5 });
  cli = target(emu);
  dir = mkdtempSync(join(tmpdir(), "api-clients-export-"));
});
beforeEach(() => {
  emu.reset();
  emu.logs.append(TRICKY);
  total = emu.logs.size;
});
afterAll(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

const exportArgs = (...args: string[]) => ["logs", "export", ...cli.base, ...args];

/** Every line of an NDJSON file, read as a stream (the file is large). */
async function ndjsonKeys(file: string, into: string[] = []): Promise<string[]> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) into.push(entryKey(JSON.parse(line) as never));
  return into;
}

describe("api-clients logs export", () => {
  it(`writes all ${SEEDED.toLocaleString("en")}+ entries to NDJSON, each once, with progress on stderr`, async () => {
    const out = join(dir, "all.ndjson");
    const result = await runCli(exportArgs("--out", out), cli.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      new RegExp(
        `exported ${total.toLocaleString("en-US")} entries · [\\d,]+ pages · [\\d,]+ entries/s · (?:\\d+ min )?[\\d.]+ s\\n$`,
      ),
    );
    const keys = await ndjsonKeys(out);
    expect(keys).toHaveLength(total);
    expect(new Set(keys).size).toBe(total);
  }, 300_000); // 86 s seen at load 34 on 2 cores (a progress line every 5 s, then the final one)

  it("writes CSV: one header, one record per entry, fields with commas, quotes and newlines quoted (RFC 4180)", async () => {
    const out = join(dir, "all.csv");
    const result = await runCli(exportArgs("--out", out), cli.env); // format from the extension
    expect(result.code).toBe(0);
    const rows = parseCsv(readFileSync(out, "utf8"));
    const [header, ...records] = rows;
    expect(header!.slice(0, 3)).toEqual(["time", "messageId", "state"]);
    expect(records).toHaveLength(total);
    const col = (name: string) => header!.indexOf(name);
    expect(
      new Set(records.map((r) => `${r[col("time")]}|${r[col("messageId")]}|${r[col("state")]}`))
        .size,
    ).toBe(total);
    expect(records.filter((r) => r.length !== header!.length)).toEqual([]);
    for (const tricky of TRICKY) {
      const row = records.find((r) => r[col("messageId")] === tricky.messageId)!;
      expect(row[col("body")]).toBe(tricky.body);
      expect(row[col("error")]).toBe(tricky.error ?? "");
      expect(row[col("url")]).toBe(tricky.url ?? "");
    }
    // Objects are JSON in their cell.
    const withHeader = records.find((r) => r[col("header")] !== "")!;
    expect(JSON.parse(withHeader[col("header")]!)).toBeTypeOf("object");
  }, 120_000);

  it("--columns picks the CSV columns; NDJSON goes to stdout without --out", async () => {
    const csv = await runCli(
      exportArgs("--format", "csv", "--columns", "messageId,body", "--message-id", "msg_csv_1"),
      cli.env,
    );
    expect(csv.code).toBe(0);
    expect(parseCsv(csv.stdout)).toEqual([
      ["messageId", "body"],
      ["msg_csv_1", TRICKY[0]!.body],
    ]);
    const ndjson = await runCli(exportArgs("--message-id", "msg_csv_2", "--no-progress"), cli.env);
    expect(ndjson.stderr).toBe("");
    expect(
      ndjson.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).body),
    ).toEqual([TRICKY[1]!.body]);
  });

  it("interrupted with SIGINT, prints the cursor; resumed with it, the two files hold every entry once", async () => {
    // Slow pages, so the interrupt lands mid-export.
    emu.faults.add({ path: "/v2/logs", delayMs: 25, times: "always" });
    const first = join(dir, "part1.ndjson");
    const running = startCli(exportArgs("--out", first, "--count", "1000"), cli.env);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await running.waitFor(() => {
      try {
        return readFileSync(first).length > 2_000_000;
      } catch {
        return false;
      }
    }, 60_000);
    running.child.kill("SIGINT");
    const interrupted = await running.done;
    expect(interrupted.code).toBe(130);
    const cursor = /^Resume with: api-clients logs export .*--cursor (\S+)/m.exec(
      interrupted.stderr,
    )?.[1];
    expect(cursor, interrupted.stderr).toMatch(/^\d+-\d+$/);
    const written = Number(
      /holds ([\d,]+) entries/.exec(interrupted.stderr)![1]!.replaceAll(",", ""),
    );
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(total);

    emu.faults.clear();
    const second = join(dir, "part2.ndjson");
    const resumed = await runCli(
      exportArgs("--out", second, "--count", "1000", "--cursor", cursor!),
      cli.env,
    );
    expect(resumed.code).toBe(0);
    const keys = await ndjsonKeys(second, await ndjsonKeys(first));
    expect((await ndjsonKeys(first)).length).toBe(written);
    expect(keys).toHaveLength(total);
    expect(new Set(keys).size).toBe(total);
  }, 120_000);

  it("a failure mid-export exits 1 with the cursor; --append resumes the same CSV without a second header", async () => {
    emu.faults.add({ path: "/v2/logs", delayMs: 25, times: "always" });
    const out = join(dir, "resume.csv");
    const running = startCli(
      exportArgs("--out", out, "--count", "1000", "--max-retries", "0"),
      cli.env,
    );
    await running.waitFor(() => {
      try {
        return readFileSync(out).length > 1_000_000;
      } catch {
        return false;
      }
    }, 60_000);
    emu.faults.clear(); // the first matching rule applies: replace the delay by the failure
    emu.faults.add({ path: "/v2/logs", status: 503, times: "always" });
    const failed = await running.done;
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/503 Service Unavailable/);
    const cursor = /^Resume with: api-clients logs export .*--cursor (\S+) .*--append/m.exec(
      failed.stderr,
    )?.[1];
    expect(cursor, failed.stderr).toBeDefined();

    emu.faults.clear();
    const resumed = await runCli(
      exportArgs("--out", out, "--count", "1000", "--cursor", cursor!, "--append"),
      cli.env,
    );
    expect(resumed.code).toBe(0);
    const [header, ...records] = parseCsv(readFileSync(out, "utf8"));
    expect(header![0]).toBe("time");
    expect(records.filter((r) => r[0] === "time")).toEqual([]);
    expect(records).toHaveLength(total);
    expect(new Set(records.map((r) => `${r[0]}|${r[1]}|${r[2]}`)).size).toBe(total);
  }, 120_000);

  it("a usage error (exit 2) or a 401 before the first page leaves an existing --out file untouched", async () => {
    const out = join(dir, "keep.ndjson");
    writeFileSync(out, "earlier export\n");
    for (const args of [
      ["--format", "xml"],
      ["--count", "0"],
      ["--from", "soon"],
    ]) {
      const result = await runCli(exportArgs("--out", out, ...args), cli.env);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain("Usage: api-clients logs export [options]");
    }
    const noOut = await runCli(exportArgs("--append"), cli.env);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--append: needs --out/);
    const denied = await runCli(exportArgs("--out", out), { QSTASH_TOKEN: "not-the-token" });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/401/);
    expect(denied.stderr).toMatch(/Nothing was written/);
    expect(readFileSync(out, "utf8")).toBe("earlier export\n");
  });
});
