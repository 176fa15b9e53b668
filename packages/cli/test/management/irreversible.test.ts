// The write policy, generated from the spec: every operation marked `x-irreversible` (read from the
// generated table, so a new one is covered without a test edit), through its management command and
// through `call`, exits 2 without `--yes` and without a terminal and sends nothing (the emulator's
// request log stays empty); the same command line with `--yes` reaches the emulator (so the 2 came from
// the policy, not from a wrong argument). On a terminal the question names the account, the server and
// the resource, and a yes sends it.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { run } from "../../src/index.js";
import { COMMANDS } from "../../src/management/commands.js";
import { allOperations, kebab, type CliInput, type CliOperation } from "../../src/operations.js";
import { useEmulator } from "../support/emulator.js";

const f = useEmulator();

/** Runs in-process with pipes (no terminal), or with `tty` streams that say they are one. */
async function cli(args: string[], options: { tty?: boolean; answer?: string } = {}) {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), options.tty ? { isTTY: true } : {});
  const stdin = Object.assign(new PassThrough(), options.tty ? { isTTY: true } : {});
  let out = "";
  let err = "";
  let answered = false;
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => {
    err += d.toString();
    if (options.answer === undefined || answered || !err.includes("[y/N]")) return;
    answered = true;
    stdin.write(options.answer);
  });
  if (options.answer === undefined) stdin.end();
  const code = await run([...args, ...f.cli.base], {
    stdout,
    stderr,
    stdin,
    env: { ...f.cli.env, UPSTASH_API_URL: "" },
  });
  return { code, stdout: out, stderr: err };
}

/** A value a flag of `input` accepts. */
function sample(input: CliInput): string {
  if (input.values !== undefined && input.values.length > 0) return input.values[0]!;
  const schema = input.schema.type === "array" ? (input.schema.items ?? {}) : input.schema;
  if (input.type === "integer" || input.type === "number") return String(schema.minimum ?? 1);
  if (input.type === "object") return "{}";
  return input.name.includes("email") ? "someone@example.com" : "id-1";
}

/** The value in a JSON body or `--param`. */
const typed = (input: CliInput): unknown =>
  input.type === "integer" || input.type === "number"
    ? Number(sample(input))
    : input.type === "boolean"
      ? true
      : input.type === "object"
        ? {}
        : sample(input);

const irreversible = allOperations().filter((op) => op.irreversible);

/** The management command line of `op`'s row: positional ids, then every required flag. */
function commandLine(op: CliOperation): string[] | undefined {
  const row = COMMANDS.find((r) => r.op === op.id);
  if (row === undefined) return undefined;
  const positional =
    row.args ?? op.inputs.filter((i) => i.in === "path").map((input) => input.name);
  const line = [...row.command.split(" ")];
  for (const name of positional) line.push(sample(op.inputs.find((i) => i.name === name)!));
  for (const input of op.inputs) {
    if (positional.includes(input.name) || !input.required) continue;
    const flag = `--${kebab(row.flags?.[input.name] ?? input.name)}`;
    if (input.type === "boolean") line.push(flag);
    else line.push(flag, sample(input));
  }
  return line;
}

/** `call <id>` with every required parameter and body field. */
function callLine(op: CliOperation): string[] {
  const line = ["call", op.id];
  const body: Record<string, unknown> = {};
  for (const input of op.inputs.filter((i) => i.required)) {
    if (input.in === "body") body[input.name] = typed(input);
    else line.push("--param", `${input.name}=${sample(input)}`);
  }
  if (op.body !== undefined && (op.body.required || Object.keys(body).length > 0))
    line.push("--body", JSON.stringify(body));
  return line;
}

const cases = irreversible.flatMap((op) => {
  const management = commandLine(op);
  return [
    ...(management === undefined ? [] : [[management.slice(0, 2).join(" "), op, management]]),
    [`call ${op.id}`, op, callLine(op)],
  ] as [string, CliOperation, string[]][];
});

describe("x-irreversible: one policy for every write the operator cannot undo", () => {
  it("the table carries the spec's marks (18 operations), and each has a management command", () => {
    expect(irreversible.length).toBe(18);
    for (const op of irreversible) expect(commandLine(op), op.id).toBeDefined();
  });

  it.each(cases)(
    "%s: without --yes and without a terminal, exit 2 and 0 requests; with --yes it is sent",
    async (_name, op, line) => {
      const refused = await cli(line);
      expect(refused.stderr).toMatch(/pass --yes to confirm/);
      expect(refused.stderr).toMatch(/nothing was sent/);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe("");
      expect(f.emu.requests()).toEqual([]);

      await cli([...line, "--yes"]);
      expect(f.emu.requests().map((r) => r.operationId)).toEqual([op.id]);
    },
  );

  it("the question names the resource, the account and the server; yes sends, no does not", async () => {
    const db = await f.m.databases.create({ database_name: "kept", primary_region: "us-east-1" });
    const before = f.emu.requests().length;
    const no = await cli(["db", "reset-password", db.database_id!], { tty: true, answer: "n\r" });
    expect(no.stderr).toContain(`Reset the password: ${db.database_id}`);
    expect(no.stderr).toContain(`account: ${f.emu.credentials.email}`);
    expect(no.stderr).toContain(`server:  ${f.emu.url}\n`);
    expect(no.stderr).toMatch(/not confirmed: nothing was sent/);
    expect(no.code).toBe(1);
    expect(f.emu.requests().length).toBe(before);

    const yes = await cli(["db", "reset-password", db.database_id!], { tty: true, answer: "y\r" });
    expect(yes.code, yes.stderr).toBe(0);
    expect(
      f.emu
        .requests()
        .slice(before)
        .map((r) => r.operationId),
    ).toEqual(["resetDatabasePassword"]);
  });

  it("says production when the request would go to the live service", async () => {
    const stdin = new PassThrough();
    stdin.end();
    let err = "";
    const stderr = new PassThrough().on("data", (d: Buffer) => (err += d.toString()));
    const code = await run(["db", "delete", "db-1"], {
      stdout: new PassThrough(),
      stderr,
      stdin,
      env: { UPSTASH_EMAIL: "ops@example.com", UPSTASH_API_KEY: "k".repeat(32) },
    });
    expect(code).toBe(2);
    expect(err).toContain("account: ops@example.com");
    expect(err).toContain("server:  https://api.upstash.com (production)");
  });
});
