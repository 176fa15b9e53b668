// The packed packages under every TypeScript setup a consuming service may have: one fixture
// (scripts/typescript-setups/consumer.ts) compiled with `strict` and `skipLibCheck: false` per
// setup and per compiler (TypeScript 5.9, the repository's own, then 6.0 and the Go-native 7.0,
// installed on first use: scripts/typescript-setups/compilers.mjs), in a project outside the
// workspace whose node_modules holds the tarballs' contents (the third-party dependencies each
// package declares are linked from the workspace). A setup that cannot work for ES-module-only
// packages, or that a compiler no longer supports, must fail with exactly the documented error, and
// the README must give its one-line fix.
//
//   pnpm exec vitest run scripts/test/typescript-setups.test.ts
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packAll, PUBLIC_PACKAGES, REPO_ROOT } from "../lib/pack.mjs";
import { DOWNLOAD_ATTEMPTS, DOWNLOAD_TIMEOUT_MS } from "../lib/tool-download.mjs";
import { COMPILERS, compiler } from "../typescript-setups/compilers.mjs";

type Version = (typeof COMPILERS)[number];
/** `ok`: compiles and runs; otherwise the TypeScript error codes it reports (and no other). */
type Want = "ok" | `TS${number}`[];

type Setup = {
  /** `type` of the caller's package.json. */
  type: "module" | "commonjs";
  module: string;
  moduleResolution: string;
  /** The same with every compiler, or what each one does. */
  want: Want | Record<Version, Want>;
};

const SETUPS: [string, Setup][] = [
  // node10 is deprecated by TypeScript 6.0 (an error unless silenced) and removed by 7.0.
  [
    "node10",
    {
      type: "commonjs",
      module: "commonjs",
      moduleResolution: "node10",
      want: { "5.9.3": "ok", "6.0.3": ["TS5107"], "7.0.2": ["TS5108"] },
    },
  ],
  ["node16-esm", { type: "module", module: "node16", moduleResolution: "node16", want: "ok" }],
  // TypeScript's node16 mode predates require(esm): the README documents the fix (nodenext).
  [
    "node16-cjs",
    { type: "commonjs", module: "node16", moduleResolution: "node16", want: ["TS1479", "TS1541"] },
  ],
  [
    "nodenext-esm",
    { type: "module", module: "nodenext", moduleResolution: "nodenext", want: "ok" },
  ],
  [
    "nodenext-cjs",
    { type: "commonjs", module: "nodenext", moduleResolution: "nodenext", want: "ok" },
  ],
  ["bundler", { type: "module", module: "esnext", moduleResolution: "bundler", want: "ok" }],
  [
    "bundler-preserve",
    { type: "module", module: "preserve", moduleResolution: "bundler", want: "ok" },
  ],
];

const wantOf = (setup: Setup, version: Version): Want =>
  setup.want === "ok" || Array.isArray(setup.want) ? setup.want : setup.want[version];

/** Every setup with every compiler. */
const CASES = COMPILERS.flatMap((version) =>
  SETUPS.map(([name, setup]) => [version, name, setup] as [Version, string, Setup]),
);

/** `bin/tsc` of each compiler. */
const tscs = new Map<Version, string>();
let work = "";

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(
  async () => {
    for (const version of COMPILERS) tscs.set(version, await compiler(version));
    work = realpathSync(mkdtempSync(join(tmpdir(), "typescript-setups-")));
    const tarballs = packAll(join(work, "tarballs"));
    const modules = join(work, "node_modules");
    for (const name of PUBLIC_PACKAGES) {
      const dest = join(modules, "@api-clients", name);
      mkdirSync(dest, { recursive: true });
      const untar = run("tar", ["-xzf", tarballs[name]!, "-C", dest, "--strip-components=1"], work);
      if (untar.status !== 0) throw new Error(`tar: ${untar.output}`);
    }
    // Third-party dependencies as the workspace resolves them; their own dependencies resolve from
    // their real paths in the pnpm store.
    mkdirSync(join(modules, "@types"));
    for (const name of PUBLIC_PACKAGES) {
      const pkg = join(REPO_ROOT, "packages", name);
      const { dependencies = {} } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
      };
      for (const dep of Object.keys(dependencies)) {
        if (dep.startsWith("@api-clients/") || existsSync(join(modules, dep))) continue;
        mkdirSync(dirname(join(modules, dep)), { recursive: true });
        symlinkSync(realpathSync(join(pkg, "node_modules", dep)), join(modules, dep));
      }
    }
    symlinkSync(
      realpathSync(join(REPO_ROOT, "node_modules", "@types", "node")),
      join(modules, "@types", "node"),
    );
    // Packing takes up to two minutes on a busy machine; each compiler's download is bounded on its own.
  },
  120_000 + COMPILERS.length * DOWNLOAD_ATTEMPTS * DOWNLOAD_TIMEOUT_MS,
);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("TypeScript setups, against the packed packages (strict, skipLibCheck false)", () => {
  it.each(CASES)(
    "TypeScript %s, %s",
    (version, name, setup) => {
      const want = wantOf(setup, version);
      const dir = join(work, `${version}-${name}`);
      mkdirSync(dir);
      copyFileSync(
        join(REPO_ROOT, "scripts", "typescript-setups", "consumer.ts"),
        join(dir, "consumer.ts"),
      );
      writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: setup.type }));
      const compilerOptions = {
        module: setup.module,
        moduleResolution: setup.moduleResolution,
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        types: ["node"],
        strict: true,
        skipLibCheck: false,
        esModuleInterop: true,
        outDir: "dist",
      };
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions, files: ["consumer.ts"] }),
      );

      const compiled = run(process.execPath, [tscs.get(version)!, "-p", "tsconfig.json"], dir);
      if (want === "ok") {
        expect(compiled.output).toBe("");
        expect(compiled.status).toBe(0);
        // The compiled consumer runs too: CommonJS output require()s the ES modules.
        const ran = run(process.execPath, [join("dist", "consumer.js"), "--run"], dir);
        expect(ran.output).toBe("smoke: 3 entries, classes true, internal object\n");
        expect(ran.status).toBe(0);
      } else {
        const codes = [...compiled.output.matchAll(/error (TS\d+)/g)].map((m) => m[1]);
        expect(codes.length).toBeGreaterThan(0);
        expect([...new Set(codes)].sort()).toEqual(want);
      }
    },
    120_000,
  );

  it("the README names every compiler and gives the one-line fix of every setup that fails", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const section = /^## TypeScript setups\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";
    for (const version of COMPILERS) expect(section).toContain(version);
    for (const [version, , setup] of CASES) {
      const want = wantOf(setup, version);
      if (want !== "ok") for (const code of want) expect(section).toContain(code);
    }
    expect(section).toContain('"module": "nodenext"');
  });
});
