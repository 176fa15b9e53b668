// Issue #19, item 7: the clients' published types stay inside semver. `@api-clients/core/internal` is
// declared outside semver, so no declaration file a client (or an add-on) publishes may name it; and
// the management base-URL constant is named like the logs one, the old name kept as a deprecated alias.
// Run after `pnpm build` (it reads `dist/`).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;
/** The packages applications import (the CLI and the emulator are programs, core is the runtime). */
const CLIENTS = ["logs-client", "management-client", "otel", "rate-limit-redis"];

function declarations(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".d.ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("published declarations (run after `pnpm build`)", () => {
  it.each(CLIENTS)("no .d.ts of %s mentions core/internal", (name) => {
    const files = declarations(join(repo, "packages", name, "dist"));
    expect(files.length).toBeGreaterThan(0);
    const mentions = files.filter((file) => readFileSync(file, "utf8").includes("core/internal"));
    expect(mentions.map((file) => file.slice(repo.length))).toEqual([]);
  });

  it("the management client exports DEFAULT_MANAGEMENT_BASE_URL, and DEFAULT_BASE_URL as its deprecated alias", async () => {
    const management = (await import(
      join(repo, "packages/management-client/dist/index.js")
    )) as Record<string, unknown>;
    const logs = (await import(join(repo, "packages/logs-client/dist/index.js"))) as Record<
      string,
      unknown
    >;
    expect(management["DEFAULT_MANAGEMENT_BASE_URL"]).toBe("https://api.upstash.com");
    expect(management["DEFAULT_BASE_URL"]).toBe(management["DEFAULT_MANAGEMENT_BASE_URL"]);
    expect(typeof logs["DEFAULT_LOGS_BASE_URL"]).toBe("string");
    const types = readFileSync(join(repo, "packages/management-client/dist/client.d.ts"), "utf8");
    expect(types).toMatch(
      /@deprecated Use \{@link DEFAULT_MANAGEMENT_BASE_URL\}[^]*?\*\/\s*export declare const DEFAULT_BASE_URL\b/,
    );
  });
});
