// The emulator's core path (`createEmulator().fetch`: the handler and everything below it) runs in
// browsers, Workers, Bun and Deno: bundled for the browser from `src/index.ts`, it imports no `node:*`
// module and uses no Node global (`Buffer`, `process`). Only the HTTP form (`node-server.ts`) and the CLI
// may use Node; a browser bundle of `createEmulator` drops them.
import { build, type Plugin } from "esbuild";
import { expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
/** The only modules allowed to import `node:*`. */
const NODE_ONLY = [/src\/internal\/node-server\.ts$/, /src\/cli\.ts$/];

it("createEmulator bundles for the browser without node:* imports or Node globals", async () => {
  const nodeImports: string[] = [];
  const allowNodeOnlyWhereAllowed: Plugin = {
    name: "node-imports",
    setup(b) {
      b.onResolve({ filter: /^node:/ }, (args) => {
        if (!NODE_ONLY.some((re) => re.test(args.importer))) {
          nodeImports.push(`${args.importer.slice(ROOT.length)} imports ${args.path}`);
        }
        return { path: args.path, external: true };
      });
    },
  };
  const out = await build({
    stdin: {
      contents:
        'import { createEmulator } from "./src/index.ts"; globalThis.emulator = createEmulator;',
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [allowNodeOnlyWhereAllowed],
  });
  expect(nodeImports).toEqual([]);
  const code = out.outputFiles[0]!.text;
  // What reaches the bundle: the handler, and neither the HTTP form nor the CLI.
  const [output] = Object.values(out.metafile.outputs);
  const kept = Object.entries(output!.inputs)
    .filter(([, i]) => i.bytesInOutput > 0)
    .map(([f]) => f);
  expect(kept).toContain("src/internal/handler.ts");
  expect(kept.filter((f) => NODE_ONLY.some((re) => re.test(f)))).toEqual([]);
  expect(code).not.toMatch(/["']node:/);
  expect(code).not.toMatch(/\bBuffer\.|\bprocess\./);
});

it("the check sees a node:* import (the HTTP form, bundled on purpose)", async () => {
  const out = await build({
    stdin: {
      contents: 'import { startEmulator } from "./src/index.ts"; globalThis.start = startEmulator;',
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    logLevel: "silent",
    plugins: [
      {
        name: "external-node",
        setup: (b) => b.onResolve({ filter: /^node:/ }, (a) => ({ path: a.path, external: true })),
      },
    ],
  });
  expect(out.outputFiles[0]!.text).toMatch(/["']node:http["']/);
});
