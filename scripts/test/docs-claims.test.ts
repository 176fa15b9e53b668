// What consumers read is true: the claims issue #35 found wrong in the READMEs, the demo, the JSDoc and
// the specs, each held to the code or to the fact sheet (../shared/reference/service-facts.md). Type
// facts are tested where they live (`databases.create({})` does not compile:
// packages/management-client/test/types.test-d.ts); every README block compiles in examples.test.ts.
//
//   pnpm exec vitest run scripts/test/docs-claims.test.ts
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../lib/pack.mjs";

const read = (file: string) => readFileSync(join(REPO_ROOT, file), "utf8");
const README = read("README.md");
const MANAGEMENT_README = read("packages/management-client/README.md");
const DEMO = read("scripts/demo.mjs");
type Node = Record<string, any>;
const logsSpec = parse(read("specs/logs.openapi.yaml")) as Node;
const managementSpec = parse(read("specs/management.openapi.yaml")) as Node;

/** The ```ts blocks of a Markdown text. */
const tsBlocks = (text: string) =>
  [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

/** Every operation of a spec with its id. */
function operations(spec: Node): [string, Node][] {
  const found: [string, Node][] = [];
  for (const item of Object.values(spec.paths as Node)) {
    for (const [method, op] of Object.entries(item as Node)) {
      if (["get", "post", "put", "patch", "delete"].includes(method)) {
        found.push([(op as Node).operationId, op as Node]);
      }
    }
  }
  return found;
}

describe("no deprecated form in a headline example, the demo or a suggestion", () => {
  it("databases are created with database_name, never the deprecated name", () => {
    const blocks = [README, MANAGEMENT_README, read("packages/emulator/README.md")].flatMap(
      tsBlocks,
    );
    const creates = [...blocks, DEMO, read("scripts/check-examples.mjs")].flatMap((text) => [
      ...text.matchAll(/databases\.create\(\{([^}]*)\}/g),
    ]);
    expect(creates.length).toBeGreaterThanOrEqual(4);
    for (const [call, fields] of creates) {
      expect(fields, call).toMatch(/\bdatabase_name:/);
      expect(fields, call).not.toMatch(/(^|[\s,])name:/);
    }
  });

  it("the demo runs the command line with --page-size, not the deprecated --count", () => {
    expect(DEMO).toMatch(/"--page-size"/);
    expect(DEMO).not.toMatch(/"--count"/);
  });
});

describe("the READMEs say what the code does", () => {
  it("a count out of range compiles (it is refused at run time), and the README says so", () => {
    const rule = /- \*\*Filters\*\*[\s\S]*?\n- /.exec(README)?.[0] ?? "";
    expect(rule).toContain("`count: 5000`");
    expect(rule).toMatch(/compile and are refused at run time/);
    expect(rule).not.toMatch(/in TypeScript they do not compile\./);
    // What the type is: a plain number, so 5000 compiles.
    const schema = read("packages/logs-client/src/generated/schema.ts");
    expect(schema).toMatch(/^\s+count: number;$/m);
  });

  it("no TypeScript setup is called TypeScript's default; the TS2792 of a bare target is named", () => {
    const section = README.slice(
      README.indexOf("## TypeScript setups"),
      README.indexOf("## Emulator"),
    );
    expect(section).not.toMatch(/\(the default\)/);
    expect(section).toMatch(/target: ES2022`[^.]*TS2792/);
  });

  it("the management README counts the spec's operations", () => {
    const count = operations(managementSpec).length;
    expect(count).toBe(58);
    expect(MANAGEMENT_README).toMatch(new RegExp(`All ${count}\\s+operations`));
  });

  it("a transfer target is a team id (the fact sheet), not an account e-mail", () => {
    const line = MANAGEMENT_README.split("\n").find((l) => l.includes("m.vector.transfer("));
    expect(line).toMatch(/team id/);
    expect(line).not.toMatch(/e-mail/);
  });

  it("CR/LF is refused in path ids only, and the READMEs say so", () => {
    for (const text of [README, MANAGEMENT_README]) {
      expect(text).not.toMatch(/CR\/LF in\s+a value,/);
      expect(text).toMatch(/CR\/LF in\s+a path id/);
    }
    // The one check of line breaks in values: path segments.
    const schema = read("packages/core/src/internal/schema.ts");
    const checks = schema.split("\n").filter((l) => /\/\[\\r\\n\]\//.test(l));
    expect(checks).toHaveLength(1);
    expect(schema).toMatch(/function checkPathSegment[\s\S]*?\[\\r\\n\][\s\S]*?\n}/);
  });

  it("the create JSDoc does not offer regional creation", () => {
    const source = read("packages/management-client/src/resources/databases.ts");
    expect(source).not.toMatch(/regional or global/);
  });
});

describe("the specs' claims about the service cite the fact sheet", () => {
  const logParams = logsSpec.components.parameters as Node;
  const schemas = managementSpec.components.schemas as Node;

  it.each(["url", "topicName", "scheduleId", "queueName", "label", "messageIds"])(
    "the repeatable %s filter cites the fact sheet",
    (name) => {
      expect(logParams[name].description).toMatch(/Repeatable \(values are ORed\)\.$/);
      expect(logParams[name]["x-source"]).toMatch(/^service facts, "[^"]+", /);
    },
  );

  it("no unsourced wire claims: CANCELED is the SDKs' spelling, and no 'both arrive on the wire'", () => {
    const text = read("specs/logs.openapi.yaml");
    expect(text).not.toMatch(/some deployments spell/);
    expect(text).not.toMatch(/both arrive on the wire/);
    const { LogState, Timestamp } = logsSpec.components.schemas;
    expect(LogState.description).toMatch(/official SDKs spell `CANCELLED`\s+as `CANCELED`/);
    expect(LogState["x-source"]).toBe('service facts, "Logs", states');
    expect(Timestamp["x-source"]).toMatch(/^service facts, "Logs", /);
  });

  it("LogEntry.label is deprecated, as in the current reference", () => {
    const { label } = logsSpec.components.schemas.LogEntry.properties;
    expect(label.deprecated).toBe(true);
    expect(label["x-source"]).toMatch(/current published reference/);
  });

  it("the platform a database gets without one is not claimed", () => {
    expect(schemas.Platform.description).not.toMatch(/`aws`\)/);
    expect(schemas.Platform.description).toMatch(/which one is not documented/);
    expect(schemas.Platform["x-source"]).toMatch(/^service facts, .*createDatabase$/);
  });

  it("Database.endpoint is a slug or a whole host name", () => {
    expect(schemas.Database.properties.endpoint.description).toMatch(/slug[\s\S]*host name/);
    expect(schemas.Database.properties.endpoint["x-source"]).toMatch(/^service facts, /);
  });

  it.each([
    "renameSearchIndex",
    "updateQStashBudget",
    "enableQStashProdPack",
    "disableQStashProdPack",
  ])("%s is not marked safe to repeat (no source says so)", (id) => {
    const op = operations(managementSpec).find(([opId]) => opId === id)?.[1];
    expect(op).toBeDefined();
    expect(op!["x-idempotent"]).toBeUndefined();
    expect(op!.description).not.toMatch(/harmless/);
  });
});

describe("the emulator README's package claims (#34)", () => {
  const emulatorReadme = read("packages/emulator/README.md");
  const pkg = JSON.parse(read("packages/emulator/package.json")) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
    exports: Record<string, unknown>;
  };
  const src = join(REPO_ROOT, "packages", "emulator", "src");
  const sources = readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => [file, readFileSync(join(src, file), "utf8")] as const);

  it("its one runtime dependency is @api-clients/core, as it says", () => {
    expect(emulatorReadme).toMatch(/Its one runtime dependency is `@api-clients\/core`/);
    expect(Object.keys(pkg.dependencies)).toEqual(["@api-clients/core"]);
  });

  it("msw and vitest are optional peer dependencies, each loaded only by its entry point", () => {
    expect(emulatorReadme).toMatch(/`msw` and `vitest` are optional peer dependencies/);
    for (const peer of ["msw", "vitest"]) {
      expect(pkg.peerDependenciesMeta[peer]?.optional).toBe(true);
      expect(Object.keys(pkg.exports)).toContain(`./${peer}`);
      const importers = sources.filter(([, text]) => new RegExp(`from "${peer}[/"]`).test(text));
      expect(importers.map(([file]) => file)).toEqual([`${peer}.ts`]);
    }
  });

  it("every @api-clients/emulator/<entry> the README imports is in its exports", () => {
    const entries = [...emulatorReadme.matchAll(/"@api-clients\/emulator\/([\w-]+)"/g)].map(
      (m) => `./${m[1]}`,
    );
    expect(new Set(entries)).toEqual(new Set(["./msw", "./vitest"]));
    for (const entry of entries) expect(Object.keys(pkg.exports)).toContain(entry);
  });
});
