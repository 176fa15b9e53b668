import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;

/** Bundles `source` the way a browser app would (ESM, minified, tree-shaken) and returns the code. */
async function bundle(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: repo, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

const logsEntry = "./packages/logs-client/dist/index.js";
const managementEntry = "./packages/management-client/dist/index.js";

describe("tree-shaking (run after `pnpm build`)", () => {
  it("importing only error classes pulls neither a client nor openapi-fetch", async () => {
    const code = await bundle(
      `import { ApiError, NotFoundError } from "${logsEntry}"; console.log(ApiError, NotFoundError);`,
    );
    const client = await bundle(
      `import { createLogsClient } from "${logsEntry}"; console.log(createLogsClient);`,
    );
    // Strings that exist only in the client, the transport and openapi-fetch.
    for (const marker of ["qstash.upstash.io", "x-should-retry", "querySerializer"]) {
      expect(client).toContain(marker);
      expect(code).not.toContain(marker);
    }
    expect(code.length).toBeLessThan(client.length / 2);
  });

  it("the management client does not carry the logs client, nor the other way round", async () => {
    const management = await bundle(
      `import { createManagementClient } from "${managementEntry}"; console.log(createManagementClient);`,
    );
    expect(management).toContain("api.upstash.com");
    // Browser-safe: no Node-only globals.
    expect(management).not.toMatch(/\bBuffer\b/);
    expect(management).not.toContain("qstash.upstash.io");
  });

  it("both clients bundled together share one copy of the runtime (instanceof holds)", async () => {
    const code = await bundle(
      `import { NotFoundError as A } from "${logsEntry}"; import { NotFoundError as B } from "${managementEntry}"; console.log(A === B);`,
    );
    const matches = code.match(/"NotFoundError"/g) ?? [];
    expect(matches).toHaveLength(1);
  });
});
