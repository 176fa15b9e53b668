import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
// @ts-expect-error plain ESM script without types
import { breakingChanges } from "../lib/spec-diff.mjs";

const repo = new URL("../..", import.meta.url).pathname;
type Doc = Record<string, any>;
const load = (name: string): Doc =>
  parse(readFileSync(join(repo, `specs/${name}.openapi.yaml`), "utf8"));

/** A fixture pair: the real spec, and a copy changed by `edit`. */
function pair(name: string, edit: (doc: Doc) => void): [Doc, Doc] {
  const before = load(name);
  const after = structuredClone(before);
  edit(after);
  return [before, after];
}

const diff = (name: string, edit: (doc: Doc) => void): string[] =>
  breakingChanges(...pair(name, edit));

describe("breaking changes between spec versions", () => {
  it("finds none between a spec and itself, or for additions callers can ignore", () => {
    expect(diff("management", () => {})).toEqual([]);
    expect(
      diff("logs", (doc) => {
        doc.components.parameters.callerIp = {
          name: "callerIp",
          in: "query",
          required: false,
          schema: { type: "string" },
        };
        doc.paths["/v2/logs"].get.parameters.push({ $ref: "#/components/parameters/callerIp" });
        doc.components.schemas.LogEntry.properties.newField = { type: "string" };
        doc.components.parameters.order.schema.enum.push("randomOrder");
      }),
    ).toEqual([]);
    // A query parameter that also takes an array (a repeatable filter) is a wider input.
    expect(
      diff("logs", (doc) => {
        doc.components.parameters.flowControlKey.schema = {
          oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
        };
      }),
    ).toEqual([]);
  });

  it.each<[string, string, (doc: Doc) => void, string[]]>([
    [
      "a removed operation",
      "management",
      (doc) => delete doc.paths["/v2/redis/stats/{id}"],
      ["GET /v2/redis/stats/{id}: operation removed"],
    ],
    [
      "a removed query parameter",
      "management",
      (doc) => (doc.paths["/v2/redis/database/{id}"].get.parameters = []),
      ['GET /v2/redis/database/{id}: query parameter "credentials": removed'],
    ],
    [
      "a new required parameter",
      "logs",
      (doc) =>
        doc.paths["/v2/logs"].get.parameters.push({
          name: "region",
          in: "query",
          required: true,
          schema: { type: "string" },
        }),
      // The two paths share one parameter list (a YAML anchor), so both change.
      [
        'GET /v2/logs: new required query parameter "region"',
        'GET /v2/events: new required query parameter "region"',
      ],
    ],
    [
      "a narrowed enum",
      "management",
      (doc) => (doc.components.schemas.MemberRole.enum = ["admin", "dev"]),
      ['POST /v2/teams/member: request body.member_role: enum narrowed (removed "finance")'],
    ],
    [
      "a tighter bound",
      "logs",
      (doc) => (doc.components.parameters.count.schema.maximum = 100),
      [
        'GET /v2/logs: query parameter "count": maximum tightened to 100',
        'GET /v2/events: query parameter "count": maximum tightened to 100',
      ],
    ],
    [
      "a changed type",
      "management",
      (doc) =>
        (doc.components.schemas.CreateVectorIndexRequest.properties.dimension_count = {
          type: "string",
        }),
      ["POST /v2/vector/index: request body.dimension_count: type changed from number to string"],
    ],
    [
      "a body field that became required",
      "management",
      (doc) => (doc.components.schemas.CreateDatabaseRequest.required = ["primary_region"]),
      ["POST /v2/redis/database: request body.primary_region: now required"],
    ],
    [
      "a filter that no longer takes a single value",
      "logs",
      (doc) => (doc.components.parameters.label.schema = { type: "array", items: {} }),
      [
        'GET /v2/logs: query parameter "label": type changed from array|string to array',
        'GET /v2/events: query parameter "label": type changed from array|string to array',
      ],
    ],
    [
      "a response field that may now be an array",
      "management",
      (doc) =>
        (doc.components.schemas.Team.properties.team_name = {
          oneOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
        }),
      [
        "POST /v2/team: response.team_name: type changed from string to array|string",
        "GET /v2/teams: response[].team_name: type changed from string to array|string",
      ],
    ],
    [
      "a removed response field",
      "management",
      (doc) => delete doc.components.schemas.Team.properties.copy_cc,
      ["POST /v2/team: response.copy_cc: removed", "GET /v2/teams: response[].copy_cc: removed"],
    ],
  ])("reports %s", (_, spec, edit, expected) => {
    expect(diff(spec, edit).sort()).toEqual([...expected].sort());
  });
});

describe("pnpm check:breaking", () => {
  let work: string;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [join(work, "scripts/check-breaking.mjs"), ...args], {
      cwd: work,
      encoding: "utf8",
    });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: work, stdio: "ignore" });

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "check-breaking-"));
    for (const dir of ["specs", "scripts", ".changeset"])
      cpSync(join(repo, dir), join(work, dir), { recursive: true });
    for (const file of readdirSync(join(work, ".changeset")))
      if (file.endsWith(".md") && file !== "README.md") rmSync(join(work, ".changeset", file));
    symlinkSync(join(repo, "node_modules"), join(work, "node_modules"));
    git("init", "-q");
    git("add", "specs");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v1");
    git("tag", "@api-clients/logs-client@1.0.0");
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("passes with no change, fails on a breaking one without a major changeset, passes with one", () => {
    expect(run().status).toBe(0);

    const spec = join(work, "specs/logs.openapi.yaml");
    const doc = parse(readFileSync(spec, "utf8"));
    doc.components.parameters.order.schema.enum = ["latestFirst"];
    writeFileSync(spec, stringify(doc));

    const failing = run();
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain("since @api-clients/logs-client@1.0.0");
    expect(failing.stdout).toContain(
      'query parameter "order": enum narrowed (removed "earliestFirst")',
    );
    expect(failing.stderr).toContain("@api-clients/logs-client needs a major changeset");

    writeFileSync(
      join(work, ".changeset/drop-order.md"),
      '---\n"@api-clients/logs-client": major\n---\n\nOnly latestFirst.\n',
    );
    const passing = run();
    expect(passing.stdout).toContain("major changeset for @api-clients/logs-client present");
    expect(passing.status).toBe(0);
  });

  it("before 1.0 (semver's 0.x), a minor changeset covers a breaking change; a patch does not", () => {
    // Still breaking since the tag (the test above narrowed the enum), now at version 0.1.0.
    rmSync(join(work, ".changeset/drop-order.md"), { force: true });
    mkdirSync(join(work, "packages/logs-client"), { recursive: true });
    writeFileSync(
      join(work, "packages/logs-client/package.json"),
      '{ "name": "@api-clients/logs-client", "version": "0.1.0" }\n',
    );
    const changeset = (bump: string) =>
      writeFileSync(
        join(work, ".changeset/drop-order.md"),
        `---\n"@api-clients/logs-client": ${bump}\n---\n\nOnly latestFirst.\n`,
      );
    try {
      changeset("patch");
      const failing = run();
      expect(failing.status).toBe(1);
      expect(failing.stderr).toContain(
        "@api-clients/logs-client needs a major changeset (a minor one before 1.0)",
      );
      changeset("minor");
      const passing = run();
      expect(passing.stdout).toContain(
        "minor (0.x) or major changeset for @api-clients/logs-client present",
      );
      expect(passing.status).toBe(0);
    } finally {
      rmSync(join(work, "packages"), { recursive: true, force: true });
    }
  });
});
