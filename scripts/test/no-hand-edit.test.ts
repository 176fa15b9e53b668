// "Edit a spec → `pnpm generate` → done", checked end to end (slow: ~40 s; it copies the repository,
// regenerates and builds). In a temporary copy of the working tree, only the specs are edited: a query
// parameter (`region` on listLogs), a body field (`labels` on createDatabase) and a region (in the set
// of `primary_region`, and of `read_regions`, whichever of `enum`/`x-extensible-enum` it uses). Then
// `pnpm generate` and `pnpm build`, and:
//   - the copy's diff touches only `specs/**` and `packages/*/src/generated/**` (no hand edit);
//   - a consumer (fixtures/no-hand-edit/use-new-inputs.ts) using each new input through the ergonomic
//     methods and through `raw` type-checks against the built packages;
//   - run against the copy's emulator (127.0.0.1) through a recording proxy, every call succeeds and
//     each new input is on the wire; the emulator checks them from its regenerated tables.
//
//   pnpm exec vitest run scripts/test/no-hand-edit.test.ts   (NO_HAND_EDIT_KEEP=1 keeps the copy)
import { spawn, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import * as prettier from "prettier";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  isAlias,
  isMap,
  isSeq,
  parseDocument,
  stringify,
  type Document,
  type Node,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { copyWorkspace, REPO_ROOT } from "../release/workspace-copy.mjs";

const NEW_REGION = "zz-north-1";
const LOGS_TOKEN = "no-hand-edit-token";
const ACCOUNT = { email: "dev@example.com", apiKey: "no-hand-edit-key" };
const GENERATED = /^packages\/[^/]+\/src\/generated\//;
const CONSUMER_SOURCE = join(REPO_ROOT, "scripts/test/fixtures/no-hand-edit/use-new-inputs.ts");
// Copying the workspace, regenerating and building every package took over 120 s at load 30 (a
// fresh-clone CI run beside other work on 2 cores).
const STEP_TIMEOUT_MS = 480_000;

let work: string;
const repo = () => join(work, "repo");
const consumer = () => join(work, "consumer");
const running = new Set<ChildProcess>();

/** The caller's environment without what pnpm, turbo and vitest set for themselves. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_|turbo_|vitest)/i.test(key)) continue;
    if (["NODE_ENV", "NODE_PATH", "NODE_OPTIONS", "TEST", "INIT_CWD"].includes(key)) continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => !dir.startsWith(REPO_ROOT.replace(/\/$/, "")))
    .join(delimiter);
  return { ...env, CI: "true", NO_COLOR: "1", TURBO_TELEMETRY_DISABLED: "1", ...extra };
}

/** Runs a command to the end in its own process group; rejects with its output on a non-zero exit. */
async function run(
  command: string,
  args: string[],
  cwd: string,
  env = cleanEnv(),
): Promise<{ stdout: string; output: string }> {
  const child = spawn(command, args, {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.add(child);
  let stdout = "";
  let output = "";
  child.stdout.on("data", (chunk) => ((stdout += chunk), (output += chunk)));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  running.delete(child);
  if (code !== 0) {
    throw new Error(
      `\`${command} ${args.join(" ")}\` exited with ${code}:\n${output.slice(-6000)}`,
    );
  }
  return { stdout, output };
}

// ---- the spec edits: text inserted where a person would type it, then the repository's prettier ----

/** Follows a local `$ref` (and YAML aliases) to the node it names. */
function resolve(doc: Document, node: unknown): YAMLMap {
  let current = node;
  for (let hops = 0; hops < 16; hops++) {
    if (isAlias(current)) current = current.resolve(doc);
    if (!isMap(current)) throw new Error(`expected a YAML map, got ${String(current)}`);
    const ref = current.get("$ref");
    if (typeof ref !== "string") return current;
    const path = ref
      .replace(/^#\//, "")
      .split("/")
      .map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"));
    current = doc.getIn(path, true);
  }
  throw new Error("$ref chain too long");
}

function seqAt(doc: Document, node: unknown, what: string): YAMLSeq {
  const seq = isAlias(node) ? node.resolve(doc) : node;
  if (!isSeq(seq) || seq.items.length === 0) throw new Error(`${what}: expected a non-empty list`);
  return seq;
}

/** The operation object with `operationId`. */
function operation(doc: Document, operationId: string): YAMLMap {
  for (const item of resolve(doc, doc.get("paths", true)).items) {
    for (const entry of resolve(doc, item.value).items) {
      const value = isAlias(entry.value) ? entry.value.resolve(doc) : entry.value;
      if (isMap(value) && resolve(doc, value).get("operationId") === operationId) {
        return resolve(doc, value);
      }
    }
  }
  throw new Error(`no operation ${operationId}`);
}

/** A text insertion into the spec's source. */
interface Insert {
  at: number;
  text: string;
}

const column = (src: string, at: number) => at - (src.lastIndexOf("\n", at - 1) + 1);
/** The end of the line holding the last non-blank character before `end`. */
function lineEnd(src: string, end: number): number {
  let last = end;
  while (last > 0 && /\s/.test(src[last - 1]!)) last--;
  const newline = src.indexOf("\n", last);
  return newline < 0 ? src.length : newline;
}
const indented = (value: unknown, by: number) =>
  stringify(value)
    .trimEnd()
    .split("\n")
    .map((line) => " ".repeat(by) + line)
    .join("\n");

/** Appends an item to a list (block `- item` or flow `[a, b]`). */
function appendItem(src: string, seq: YAMLSeq, value: unknown): Insert {
  const last = seq.items.at(-1) as Node;
  const [start, end] = last.range!;
  if (seq.flow) return { at: end, text: `, ${stringify(value).trim()}` };
  return { at: lineEnd(src, end), text: `\n${indented([value], column(src, start) - 2)}` };
}

/** Appends `key: value` to a block map. */
function appendEntry(src: string, map: YAMLMap, key: string, value: unknown): Insert {
  const last = map.items.at(-1)!;
  const keyStart = (last.key as Node).range![0];
  const end = ((last.value ?? last.key) as Node).range![1];
  return { at: lineEnd(src, end), text: `\n${indented({ [key]: value }, column(src, keyStart))}` };
}

/** The value list of a string schema: `x-extensible-enum`, else `enum`. */
function valueList(doc: Document, schemaNode: unknown): YAMLSeq {
  const schema = resolve(doc, schemaNode);
  const key = schema.has("x-extensible-enum") ? "x-extensible-enum" : "enum";
  return seqAt(doc, schema.get(key, true), `the region schema's ${key}`);
}

async function editSpec(file: string, edit: (doc: Document, src: string) => Insert[]) {
  const src = readFileSync(file, "utf8");
  const inserts = edit(parseDocument(src), src).sort((a, b) => b.at - a.at);
  const text = inserts.reduce((out, { at, text }) => out.slice(0, at) + text + out.slice(at), src);
  const options = await prettier.resolveConfig(file);
  writeFileSync(file, await prettier.format(text, { ...options, filepath: file }));
}

async function editSpecs(root: string): Promise<void> {
  await editSpec(join(root, "specs/logs.openapi.yaml"), (doc, src) => {
    const params = seqAt(doc, operation(doc, "listLogs").get("parameters", true), "parameters");
    const region = {
      name: "region",
      in: "query",
      required: false,
      description: "Only entries of messages published in this region.",
      schema: { type: "string", minLength: 1 },
    };
    return [appendItem(src, params, region)];
  });

  await editSpec(join(root, "specs/management.openapi.yaml"), (doc, src) => {
    const requestBody = resolve(doc, operation(doc, "createDatabase").get("requestBody", true));
    const body = resolve(doc, requestBody.getIn(["content", "application/json", "schema"], true));
    const properties = resolve(doc, body.get("properties", true));
    const labels = {
      type: "array",
      description: "Labels of the database.",
      items: { type: "string" },
    };
    // A new database region: accepted as primary and as read region (one edit per distinct list).
    const lists = new Set([
      valueList(doc, properties.get("primary_region", true)),
      valueList(doc, resolve(doc, properties.get("read_regions", true)).get("items", true)),
    ]);
    return [
      appendEntry(src, properties, "labels", labels),
      ...[...lists].map((list) => appendItem(src, list, NEW_REGION)),
    ];
  });
}

// ---- the copy ----

/** `node_modules` of the copy: links to the installed packages, workspace links kept relative. */
function linkNodeModules(root: string): void {
  // The root folder holds the store (`.pnpm`): a real folder of links, so git sees nothing untracked.
  mkdirSync(join(root, "node_modules"));
  for (const entry of readdirSync(join(REPO_ROOT, "node_modules"))) {
    symlinkSync(join(REPO_ROOT, "node_modules", entry), join(root, "node_modules", entry));
  }
  // Each package's links are relative (`../../../node_modules/.pnpm/…`, `../../core`): copied as they
  // are, they point into the copy.
  const dirs = ["bench", ...readdirSync(join(REPO_ROOT, "packages")).map((p) => `packages/${p}`)];
  for (const dir of dirs) {
    const from = join(REPO_ROOT, dir, "node_modules");
    if (existsSync(from) && existsSync(join(root, dir))) {
      cpSync(from, join(root, dir, "node_modules"), { recursive: true, verbatimSymlinks: true });
    }
  }
}

/** A consumer project outside the copy that installs the copy's packages (as links). */
function makeConsumer(dir: string): void {
  mkdirSync(join(dir, "node_modules", "@api-clients"), { recursive: true });
  for (const pkg of ["core", "logs-client", "management-client", "emulator"]) {
    symlinkSync(join(repo(), "packages", pkg), join(dir, "node_modules", "@api-clients", pkg));
  }
  symlinkSync(join(REPO_ROOT, "node_modules", "@types"), join(dir, "node_modules", "@types"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        types: ["node"],
        skipLibCheck: true,
        noEmitOnError: true,
        outDir: "out",
      },
      files: ["use-new-inputs.ts"],
    }),
  );
  copyFileSync(CONSUMER_SOURCE, join(dir, "use-new-inputs.ts"));
}

// ---- the emulator and a recording proxy in front of it ----

interface Recorded {
  method: string;
  url: string;
  body: string;
}

async function startEmulator(): Promise<{ url: string; child: ChildProcess }> {
  const cli = join(repo(), "packages", "emulator", "dist", "cli.js");
  const args = [cli, "--port", "0", "--host", "127.0.0.1", "--seed-logs", "5"];
  args.push("--logs-token", LOGS_TOKEN, "--account", `${ACCOUNT.email}:${ACCOUNT.apiKey}`);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    // Generous: starting Node and the emulator can take seconds on a busy machine.
    const timer = setTimeout(() => reject(new Error(`emulator did not start:\n${out}`)), 30_000);
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = /^export QSTASH_URL=(\S+)$/m.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.stderr!.on("data", (chunk) => (out += chunk));
    child.once("exit", (code) => reject(new Error(`emulator exited with ${code}:\n${out}`)));
  });
  return { url, child };
}

async function startProxy(target: string, seen: Recorded[]): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? "", url: req.url ?? "", body: body.toString("utf8") });
      const upstream = request(
        `${target}${req.url ?? "/"}`,
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", (e) => res.destroy(e));
      upstream.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return server;
}

// ---- the test ----

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "no-hand-edit-"));
  copyWorkspace(repo());
  linkNodeModules(repo());
  await editSpecs(repo());
  await run("pnpm", ["generate"], repo());
  await run("pnpm", ["build", "--filter=./packages/*", "--output-logs=errors-only"], repo());
}, STEP_TIMEOUT_MS);

afterAll(() => {
  for (const child of running) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  }
  if (work && !process.env.NO_HAND_EDIT_KEEP) rmSync(work, { recursive: true, force: true });
});

describe("no hand edit (slow): a query parameter, a body field and a region added to the specs only", () => {
  it("the copy's diff touches only specs/** and packages/*/src/generated/**, and regenerated each client", async () => {
    const { stdout } = await run(
      "git",
      ["status", "--porcelain", "--untracked-files=all", "--no-renames"],
      repo(),
    );
    const changed = stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => line.slice(3));
    expect(changed.filter((file) => !file.startsWith("specs/") && !GENERATED.test(file))).toEqual(
      [],
    );
    expect(changed).toEqual(
      expect.arrayContaining([
        "specs/logs.openapi.yaml",
        "specs/management.openapi.yaml",
        "packages/logs-client/src/generated/schema.ts",
        "packages/logs-client/src/generated/operations.ts",
        "packages/management-client/src/generated/schema.ts",
        "packages/management-client/src/generated/operations.ts",
        "packages/emulator/src/generated/operations.ts",
      ]),
    );
  });

  it("a consumer using each new input through the methods and raw type-checks against the build", async () => {
    makeConsumer(consumer());
    const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
    await run(process.execPath, [tsc, "-p", "tsconfig.json"], consumer());
    expect(existsSync(join(consumer(), "out", "use-new-inputs.js"))).toBe(true);
  });

  it("against the copy's emulator every call succeeds and each new input is on the wire", async () => {
    const compiled = join(consumer(), "out", "use-new-inputs.js");
    expect(existsSync(compiled), "the type-check step must have passed").toBe(true);
    const emulator = await startEmulator();
    const seen: Recorded[] = [];
    const proxy = await startProxy(emulator.url, seen);
    try {
      const baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const env = cleanEnv({
        BASE_URL: baseUrl,
        LOGS_TOKEN,
        EMAIL: ACCOUNT.email,
        API_KEY: ACCOUNT.apiKey,
      });
      const { stdout } = await run(process.execPath, [compiled], consumer(), env);
      expect(JSON.parse(stdout)).toEqual({
        page: 5,
        rawPage: { status: 200, events: 5 },
        created: NEW_REGION,
        rawCreated: { status: 200, region: NEW_REGION },
      });

      const wire = seen.map(({ method, url, body }) => {
        const parsed = new URL(url, baseUrl);
        return {
          method,
          path: parsed.pathname,
          region: parsed.searchParams.get("region"),
          body: body === "" ? undefined : (JSON.parse(body) as unknown),
        };
      });
      expect(wire).toEqual([
        { method: "GET", path: "/v2/logs", region: "from-method", body: undefined },
        { method: "GET", path: "/v2/logs", region: "from-raw", body: undefined },
        {
          method: "POST",
          path: "/v2/redis/database",
          region: null,
          body: { name: "method-db", primary_region: NEW_REGION, labels: ["a"] },
        },
        {
          method: "POST",
          path: "/v2/redis/database",
          region: null,
          body: { name: "raw-db", primary_region: NEW_REGION, labels: ["b"] },
        },
      ]);

      // The emulator checks the new inputs by the regenerated rules, not only lets them through.
      const basic = `Basic ${Buffer.from(`${ACCOUNT.email}:${ACCOUNT.apiKey}`).toString("base64")}`;
      const badLabels = await fetch(`${emulator.url}/v2/redis/database`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/json" },
        body: JSON.stringify({ name: "x", primary_region: NEW_REGION, labels: [1] }),
      });
      expect([badLabels.status, await badLabels.json()]).toEqual([
        400,
        {
          error: "labels[0]: must be a string",
          code: "BAD_REQUEST",
          message: "labels[0]: must be a string",
        },
      ]);
      const emptyRegion = await fetch(`${emulator.url}/v2/logs?region=`, {
        headers: { authorization: `Bearer ${LOGS_TOKEN}` },
      });
      expect([emptyRegion.status, await emptyRegion.json()]).toEqual([
        400,
        {
          error: "region: must be a non-empty string",
          code: "BAD_REQUEST",
          message: "region: must be a non-empty string",
        },
      ]);
    } finally {
      await new Promise<void>((done) => {
        proxy.closeAllConnections();
        proxy.close(() => done());
      });
      emulator.child.kill("SIGTERM");
    }
  });
});
