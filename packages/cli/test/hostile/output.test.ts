// What a hostile server sends never controls the terminal or a spreadsheet, and a mistyped credential
// flag is never printed back (issue 24: 3, 14, 15, and the --token-file form).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseCsv } from "../support/csv.js";
import { runCli, startCli, type CliResult } from "../support/cli.js";
import { entry, startHostile, type HostileServer } from "./server.js";

// OSC 52 (writes the clipboard), a colour, a cursor move, a title change, DEL and a C1 CSI.
const OSC52 = "\u001b]52;c;cm0gLXJmIH4K\u0007";
const EVIL = `${OSC52}\u001b[31mred\u001b[2J\u001b]0;title\u001b\\\r\u0008\u007f\u009b31m`;
/** Any byte below 0x20 except newline, DEL, or a C1 control. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** `logs tail --json` (and then its table form) until the first entry shows, then Ctrl-C. */
async function tailOnce(url: string, env: Record<string, string>): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  for (const json of [["--json"], []]) {
    const tail = startCli(["logs", "tail", "--base-url", url, ...json, "--interval", "1000"], env);
    await tail.waitFor((out) => out.includes("msg_"));
    tail.child.kill("SIGINT");
    const result = await tail.done;
    stdout += result.stdout;
    stderr += result.stderr;
  }
  return { code: 130, signal: null, stdout, stderr };
}

const dir = mkdtempSync(join(tmpdir(), "api-clients-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let server: HostileServer | undefined;
afterEach(() => server?.close());

describe("server text on the terminal (issue 24, 14)", () => {
  it("no control character from server data reaches stdout or stderr: tables, JSON, cursors, errors, --verbose", async () => {
    server = await startHostile((query) => {
      if (query.get("state") === "FAILED")
        return {
          status: 400,
          body: { error: `bad state ${EVIL}`, hint: EVIL },
          headers: { "x-request-id": "req-1" },
        };
      return {
        body: {
          events: [
            entry(`msg_${EVIL}`, Date.now(), {
              url: `https://example.com/${EVIL}`,
              label: EVIL,
              error: EVIL,
              [`field${EVIL}`]: EVIL,
            }),
          ],
          cursor: `cursor${EVIL}`,
        },
      };
    });
    const env = { QSTASH_TOKEN: "t" };
    const base = ["logs", "list", "--base-url", server.url];
    const runs = [
      await runCli(base, env),
      await runCli([...base, "--json"], env),
      await tailOnce(server.url, env),
      await runCli([...base, "--state", "FAILED", "--max-retries", "0"], env),
      await runCli([...base, "--state", "FAILED", "--max-retries", "0", "--verbose"], env),
    ];
    expect(runs[0]!.stdout).toContain("msg_");
    expect(runs[0]!.stderr).toContain("More entries: add --cursor cursor");
    // JSON output keeps the value (escaped), so a JSON reader gets the exact text back.
    expect(JSON.parse(runs[1]!.stdout).events[0].label).toBe(EVIL);
    expect(runs[3]!.code).toBe(1);
    expect(runs[3]!.stderr).toMatch(/bad state/);
    for (const run of runs) {
      expect(run.stdout + run.stderr).not.toMatch(CONTROL);
    }
  }, 30_000);
});

describe("CSV export that opens as text in a spreadsheet (issue 24, 15)", () => {
  it("cells starting with = + - @ TAB or CR get a leading ' and quotes (OWASP); numbers stay numbers", async () => {
    const formulas = ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"];
    server = await startHostile(() => ({
      body: {
        events: formulas.map((f, i) =>
          entry(`msg_${i}`, 1_700_000_000_000 + i, { label: f, responseStatus: -1 }),
        ),
      },
    }));
    const out = join(dir, "formulas.csv");
    const result = await runCli(
      [
        "logs",
        "export",
        "--base-url",
        server.url,
        "--out",
        out,
        "--columns",
        "messageId,label,responseStatus",
      ],
      { QSTASH_TOKEN: "t" },
    );
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(out, "utf8");
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(["messageId", "label", "responseStatus"]);
    expect(rows.map((r) => r[1])).toEqual(formulas.map((f) => `'${f}`));
    expect(rows.map((r) => r[2])).toEqual(formulas.map(() => "-1"));
  });

  it("--columns refuses members every object has (constructor, __proto__)", async () => {
    server = await startHostile(() => ({ body: { events: [entry("m")] } }));
    for (const column of ["constructor", "__proto__", "toString"]) {
      const result = await runCli(
        [
          "logs",
          "export",
          "--base-url",
          server.url,
          "--format",
          "csv",
          "--columns",
          `messageId,${column}`,
        ],
        { QSTASH_TOKEN: "t" },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--columns: "${column}" is not a field of an entry`);
      expect(result.stdout).not.toMatch(/function|native code/);
    }
    expect(server.requests).toBe(0);
  });
});

describe("credentials on the command line (issue 24, 3)", () => {
  it("a mistyped credential flag is reported without its value", async () => {
    const secret = "s3cr3t-token-value-1234";
    for (const flag of ["--tokn", "--api-kee", "--tokenfile"]) {
      const result = await runCli(["logs", "list", `${flag}=${secret}`], {});
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`unknown option '${flag}=…'`);
      expect(result.stderr + result.stdout).not.toContain(secret);
    }
  });

  it("--token-file reads the token from a file or stdin (-), without it on the command line", async () => {
    const token = "file-token-5678";
    let authorized = 0;
    const tokenFile = join(dir, "token");
    writeFileSync(tokenFile, `${token}\n`);
    const seen: string[] = [];
    const { createServer } = await import("node:http");
    const echo = createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      if (req.headers.authorization === `Bearer ${token}`) authorized++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ events: [entry("seen")] }));
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(echo.address() as { port: number }).port}`;
    try {
      const fromFile = await runCli(
        ["logs", "list", "--base-url", url, "--token-file", tokenFile, "--json"],
        {},
      );
      expect(fromFile.code, fromFile.stderr).toBe(0);
      const fromStdin = await runCli(
        ["logs", "list", "--base-url", url, "--token-file", "-", "--json"],
        {},
        `${token}\n`,
      );
      expect(fromStdin.code, fromStdin.stderr).toBe(0);
      expect(authorized).toBe(2);
      const missing = await runCli(
        ["logs", "list", "--base-url", url, "--token-file", join(dir, "none")],
        {},
      );
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/--token-file: cannot read .*ENOENT/);
      const both = await runCli(
        ["logs", "list", "--base-url", url, "--token", "x", "--token-file", tokenFile],
        {},
      );
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/give --token or --token-file, not both/);
      expect(seen).toHaveLength(2);
    } finally {
      echo.closeAllConnections();
      echo.close();
    }
  });
});
