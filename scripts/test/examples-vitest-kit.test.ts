// The emulator README's "In vitest" example runs as a consumer runs it: its global setup file and its
// test file, taken verbatim from the README, in a project of their own whose `@api-clients/*` resolve
// through the packages' `exports` to `dist/` (run `pnpm build` first), under this repository's vitest.
//
//   pnpm exec vitest run scripts/test/examples-vitest-kit.test.ts
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/pack.mjs";

const work = mkdtempSync(join(tmpdir(), "vitest-kit-example-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it("the README's global setup and test file pass under vitest", () => {
  const readme = readFileSync(join(REPO_ROOT, "packages", "emulator", "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### In vitest"));
  const [setup, test] = [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  expect(setup).toMatch(/export default emulatorSetup\(/);
  expect(test).toMatch(/useEmulator\(\)/);

  mkdirSync(join(work, "node_modules", "@api-clients"), { recursive: true });
  for (const pkg of ["core", "emulator", "logs-client", "management-client"]) {
    symlinkSync(join(REPO_ROOT, "packages", pkg), join(work, "node_modules", "@api-clients", pkg));
  }
  symlinkSync(join(REPO_ROOT, "node_modules", "vitest"), join(work, "node_modules", "vitest"));
  mkdirSync(join(work, "test"));
  writeFileSync(join(work, "test", "emulator.setup.ts"), setup!);
  writeFileSync(join(work, "test", "readme.test.ts"), test!);
  writeFileSync(
    join(work, "vitest.config.mjs"),
    'export default { test: { include: ["test/**/*.test.ts"], globalSetup: ["test/emulator.setup.ts"], fileParallelism: false } };\n',
  );
  const vitest = join(REPO_ROOT, "node_modules", "vitest", "vitest.mjs");
  const run = spawnSync(process.execPath, [vitest, "run", "--reporter=verbose"], {
    cwd: work,
    encoding: "utf8",
    timeout: 90_000,
    env: { ...process.env, NO_COLOR: "1", CI: "1" },
  });
  const output = run.stdout + run.stderr;
  expect(output).toMatch(/Tests\s+2 passed \(2\)/);
  expect(run.status, output).toBe(0);
});
