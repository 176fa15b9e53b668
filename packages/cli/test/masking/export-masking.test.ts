// `logs export` writes what the service sent, except a credential in use: an entry that shows a
// forwarded Authorization header (or the token in any field, in any letter case) is written with it
// masked, as NDJSON and CSV, to a file and to stdout; other entries are written as they came.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entry, startHostile, type HostileServer } from "../hostile/server.js";
import { exportArgs, runCli } from "../support/cli.js";

const TOKEN = "tok_export0123456789abcdefghijkl";
const time = Date.now() - 60_000;
const events = [
  entry("msg_plain", time, { body: "nothing secret" }),
  entry("msg_header", time - 1, { header: { Authorization: [`Bearer ${TOKEN}`] } }),
  entry("msg_upper", time - 2, {
    body: `echo ${TOKEN.toUpperCase()} end`,
    url: `https://x.test/?t=${TOKEN}`,
  }),
];

let server: HostileServer;
const dir = mkdtempSync(join(tmpdir(), "export-masking-"));
beforeAll(async () => {
  server = await startHostile(() => ({ body: { events } }));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const args = (...more: string[]) => exportArgs(server.url, ...more);

describe("logs export masks the credential in use, whatever field holds it", () => {
  it.each([
    ["NDJSON to stdout", [], undefined],
    ["NDJSON to --out", ["--out"], "all.ndjson"],
    ["CSV to stdout", ["--format", "csv", "--columns", "messageId,url,body"], undefined],
    ["CSV to --out", ["--format", "csv", "--columns", "messageId,url,body", "--out"], "all.csv"],
  ])("%s", async (_name, more, file) => {
    const out = file === undefined ? [] : [join(dir, file)];
    const result = await runCli(args(...more, ...out), { QSTASH_TOKEN: TOKEN });
    expect(result.code, result.stderr).toBe(0);
    const written = file === undefined ? result.stdout : readFileSync(out[0]!, "utf8");
    expect(written.toLowerCase()).not.toContain(TOKEN.toLowerCase());
    expect(written).toContain("[REDACTED]");
    expect(written).toContain("msg_plain");
    expect(written).toContain("nothing secret");
    if (more[0] !== "--format") {
      const lines = written
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(lines.map((l) => l.messageId)).toEqual(["msg_plain", "msg_header", "msg_upper"]);
      expect(lines[0]).toEqual(JSON.parse(JSON.stringify(events[0])));
      expect(lines[1].header).toEqual({ Authorization: ["Bearer [REDACTED]"] });
      expect(lines[2].body).toBe("echo [REDACTED] end");
    }
    expect(result.stderr).not.toContain(TOKEN);
  });
});
