// README's "Public API" is the list of what `@api-clients/core` exports: its runtime names against the
// module's real exports, its types against what TypeScript sees exported from src/index.ts, and its
// entry points against package.json. Any export added, renamed or dropped without the README fails here.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as core from "../../src/index.js";
import * as errors from "../../src/errors.js";

const file = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const readme = readFileSync(file("README.md"), "utf8");
const section = /^## Public API\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";

/** The backticked names in the first column of the table whose header cell is `header`. */
function tableNames(header: string): string[] {
  const lines = section.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`| ${header} `));
  if (start < 0) return [];
  const rows = lines.slice(start + 2);
  const end = rows.findIndex((line) => !line.startsWith("|"));
  return rows
    .slice(0, end < 0 ? rows.length : end)
    .flatMap((row) => [...row.split("|")[1]!.matchAll(/`(\w+)`/g)].map((m) => m[1]!));
}

/** Every name src/index.ts exports, values and types, as TypeScript resolves them. */
function exportedNames(): string[] {
  const entry = file("src/index.ts");
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(module).map((symbol) => symbol.name);
}

const sorted = (names: Iterable<string>): string[] => [...names].sort();

describe("core's README lists exactly what the code exports", () => {
  const runtime = tableNames("Runtime name");
  const types = tableNames("Type");

  it("each name once", () => {
    expect(runtime.length).toBeGreaterThan(0);
    expect(types.length).toBeGreaterThan(0);
    const all = [...runtime, ...types];
    expect(all.filter((name, i) => all.indexOf(name) !== i)).toEqual([]);
  });

  it("the runtime names are the module's exports, and their count is the one the README states", () => {
    expect(sorted(runtime)).toEqual(sorted(Object.keys(core)));
    const stated = /exports exactly these (\d+) runtime names/.exec(section)?.[1];
    expect(Number(stated)).toBe(runtime.length);
  });

  it("the types are every other name src/index.ts exports", () => {
    const values = new Set(Object.keys(core));
    expect(sorted(types)).toEqual(sorted(exportedNames().filter((name) => !values.has(name))));
  }, 60_000);

  it("the error classes listed are /errors' runtime exports, the same values as the main entry's", () => {
    const listed = runtime.filter((name) => name.endsWith("Error"));
    expect(sorted(listed)).toEqual(sorted(Object.keys(errors)));
    for (const [name, value] of Object.entries(errors)) {
      expect((core as Record<string, unknown>)[name], name).toBe(value);
    }
  });

  it("the entry points are the three the README names", () => {
    const pkg = JSON.parse(readFileSync(file("package.json"), "utf8")) as {
      exports: Record<string, unknown>;
      typesVersions: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(pkg.exports)).toEqual([".", "./errors", "./internal", "./package.json"]);
    expect(Object.keys(pkg.typesVersions["*"]!)).toEqual(["errors", "internal"]);
    const named = [...section.matchAll(/^- `(@api-clients\/core[^`]*)`/gm)].map((m) => m[1]);
    expect(named).toEqual([
      "@api-clients/core",
      "@api-clients/core/errors",
      "@api-clients/core/internal",
    ]);
  });
});
