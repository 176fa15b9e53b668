// The packed packages under every TypeScript setup a consuming service may have: one fixture
// (scripts/typescript-setups/consumer.ts) compiled with `strict` and `skipLibCheck: false` per
// setup, in a project outside the workspace whose node_modules holds the tarballs' contents (the
// third-party dependencies each package declares are linked from the workspace, so nothing is
// downloaded). A setup that cannot work for ES-module-only packages must fail with exactly the
// documented error, and the README must give its one-line fix.
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

type Setup = {
  /** `type` of the caller's package.json. */
  type: "module" | "commonjs";
  module: string;
  moduleResolution: string;
  /** `ok`: compiles and runs; otherwise the TypeScript error codes it reports (and no other). */
  want: "ok" | `TS${number}`[];
};

const SETUPS: [string, Setup][] = [
  ["node10", { type: "commonjs", module: "commonjs", moduleResolution: "node10", want: "ok" }],
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

const tsc = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
let work = "";

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(() => {
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
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("TypeScript setups, against the packed packages (strict, skipLibCheck false)", () => {
  it.each(SETUPS)(
    "%s",
    (name, setup) => {
      const dir = join(work, name);
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

      const compiled = run(process.execPath, [tsc, "-p", "tsconfig.json"], dir);
      if (setup.want === "ok") {
        expect(compiled.output).toBe("");
        expect(compiled.status).toBe(0);
        // The compiled consumer runs too: CommonJS output require()s the ES modules.
        const ran = run(process.execPath, [join("dist", "consumer.js"), "--run"], dir);
        expect(ran.output).toBe("smoke: 3 entries, classes true, internal object\n");
        expect(ran.status).toBe(0);
      } else {
        const codes = [...compiled.output.matchAll(/error (TS\d+)/g)].map((m) => m[1]);
        expect(codes.length).toBeGreaterThan(0);
        expect([...new Set(codes)].sort()).toEqual(setup.want);
      }
    },
    120_000,
  );

  it("the README gives the one-line fix of every setup that fails", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const section = /^## TypeScript setups\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";
    for (const [, setup] of SETUPS.filter(([, s]) => s.want !== "ok")) {
      for (const code of setup.want) expect(section).toContain(code);
    }
    expect(section).toContain('"module": "nodenext"');
  });
});
