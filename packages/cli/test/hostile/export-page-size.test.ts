// `logs export` without --page-size asks for pages of 1,000 entries (the API's `count` bound); a service
// that refuses that size with 400 (the current reference says at most 100) gets the same export at its
// default page size: every entry once, the refused request the only extra one. With --page-size the
// export sends what it was given and a 400 stays an error.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exportArgs, runCli } from "../support/cli.js";
import { entry, startHostile } from "./server.js";

const dir = mkdtempSync(join(tmpdir(), "export-page-size-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const time = Date.now() - 60_000;
const ENTRIES = 250;
const all = Array.from({ length: ENTRIES }, (_, i) => entry(`msg_${i}`, time - i));

/** A service whose pages hold at most `max` entries and that refuses a larger `count` with 400. */
async function strictService(max: number) {
  const counts: (string | null)[] = [];
  const server = await startHostile((query) => {
    counts.push(query.get("count"));
    const size = Number(query.get("count") ?? 100);
    if (size > max)
      return { status: 400, body: { code: "bad_request", message: "count too large" } };
    const at = Number(query.get("cursor") ?? 0);
    const next = at + size;
    return {
      body: { events: all.slice(at, next), ...(next < ENTRIES ? { cursor: String(next) } : {}) },
    };
  });
  return { server, counts };
}

const args = (url: string, out: string, ...more: string[]) =>
  exportArgs(url, "--out", out, ...more);
const env = { QSTASH_TOKEN: "page-size-token" };
const ids = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { messageId: string }).messageId);

describe("logs export page size", () => {
  it("asks for 1000 per page when --page-size is not given", async () => {
    const { server, counts } = await strictService(1_000);
    try {
      const out = join(dir, "large.ndjson");
      const result = await runCli(args(server.url, out), env);
      expect(result.code, result.stderr).toBe(0);
      expect(counts).toEqual(["1000"]);
      expect(ids(out)).toEqual(all.map((e) => e.messageId));
    } finally {
      await server.close();
    }
  });

  it("a service that refuses 1000 (400): the export at its default, every entry once", async () => {
    const { server, counts } = await strictService(100);
    try {
      const out = join(dir, "strict.ndjson");
      const result = await runCli(args(server.url, out), env);
      expect(result.code, result.stderr).toBe(0);
      expect(counts).toEqual(["1000", null, null, null]);
      expect(ids(out)).toEqual(all.map((e) => e.messageId));
    } finally {
      await server.close();
    }
  });

  it("--page-size 1000 refused: exit 1, no second try", async () => {
    const { server, counts } = await strictService(100);
    try {
      const out = join(dir, "given.ndjson");
      const result = await runCli(args(server.url, out, "--page-size", "1000"), env);
      expect(result.code).toBe(1);
      expect(counts).toEqual(["1000"]);
    } finally {
      await server.close();
    }
  });
});
