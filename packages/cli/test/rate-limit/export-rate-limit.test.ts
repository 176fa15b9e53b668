// `logs export` under the service's burst limit: the progress line says when it waits for the rate
// limit, and `--redis-url` shares the budget with other exports (falling back to the in-process gate
// when that Redis cannot be reached, so the export still finishes without a 429).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { expect, it } from "vitest";
import { Progress } from "../../src/output/progress.js";
import { runCli } from "../support/cli.js";
import { useEmulator } from "../support/emulator.js";

const h = useEmulator({ seedLogs: 60, burstLimit: 3 });

it("the progress line shows a rate-limit wait: 'waiting 0.6 s for the rate limit'", () => {
  let written = "";
  const tty = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    }),
    { isTTY: true },
  );
  const progress = new Progress(tty, "exported");
  progress.waiting(600, { entries: 20, pages: 2 });
  expect(written).toMatch(
    /exported 20 entries · 2 pages · .* · waiting 0\.6 s for the rate limit$/,
  );
});

it("--redis-url: an export paced by the shared budget (here unreachable: the in-process gate) gets no 429", async () => {
  const dir = mkdtempSync(join(tmpdir(), "api-clients-rate-"));
  try {
    const out = join(dir, "all.ndjson");
    const result = await runCli(
      [
        "logs",
        "export",
        ...h.cli.base,
        "--count",
        "10",
        "--out",
        out,
        "--redis-url",
        "redis://127.0.0.1:1",
      ],
      h.cli.env,
    );
    expect(result.code).toBe(0);
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(60);
    expect(h.emu.rateLimits).toEqual({ accepted: 6, refused: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("--redis-url that is not a Redis URL is a usage error", async () => {
  const result = await runCli(
    ["logs", "export", ...h.cli.base, "--redis-url", "http://x"],
    h.cli.env,
  );
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("--redis-url: must be a redis:// or rediss:// URL");
});
