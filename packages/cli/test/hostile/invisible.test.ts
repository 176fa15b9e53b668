// Bidi controls and zero-width characters in server text are shown as `\uNNNN`, as control characters
// are shown as `\xNN`: a database named `invoice<U+202E>gpj.exe` cannot pass for `invoiceexe.jpg`, and
// a zero-width space cannot make two names look the same. JSON escapes them (the same value).
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { run } from "../../src/index.js";
import { safeJson, safeText } from "../../src/output/safe.js";
import { useEmulator } from "../support/emulator.js";

const f = useEmulator();

const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

async function cli(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  const code = await run([...args, ...f.cli.base], { stdout, stderr, stdin, env: f.cli.env });
  return { code, stdout: out, stderr: err };
}

describe("bidi controls and zero-width characters", () => {
  it.each([
    ["U+202E right-to-left override", "invoice\u202egpj.exe", "invoice\\u202egpj.exe"],
    ["U+2066 isolate and U+2069 its end", "a\u2066b\u2069", "a\\u2066b\\u2069"],
    ["U+200B zero-width space", "ad\u200bmin", "ad\\u200bmin"],
    ["U+FEFF byte order mark", "\ufeffname", "\\ufeffname"],
  ])("%s: safeText shows it, safeJson escapes it", (_name, text, shown) => {
    expect(safeText(text)).toBe(shown);
    expect(safeJson(text)).toBe(`"${shown}"`);
    expect(JSON.parse(safeJson(text))).toBe(text);
  });

  it("db list, db get and --json show a spoofing name escaped", async () => {
    const name = "invoice\u202egpj.exe\u200b";
    const db = await f.m.databases.create({ database_name: name, primary_region: "us-east-1" });
    for (const args of [
      ["db", "list"],
      ["db", "list", "--json"],
      ["db", "get", db.database_id!],
    ]) {
      const result = await cli(args);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("invoice\\u202egpj.exe\\u200b");
      expect(result.stdout).not.toMatch(INVISIBLE);
    }
  });
});
