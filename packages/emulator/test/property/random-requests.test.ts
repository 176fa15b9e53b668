// Random methods, paths, query strings and bodies: never 5xx without faults, always the error shape.
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { operations } from "../../src/generated/operations.js";
import type { Emulator } from "../../src/index.js";
import { ALICE, LOGS_TOKEN, start } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ seedLogs: 500 });
});
afterAll(() => emu.close());

const segment = fc.oneof(
  fc.constantFrom(
    "v2",
    "logs",
    "events",
    "redis",
    "database",
    "databases",
    "stats",
    "rename",
    "reset-password",
    "enable-tls",
    "update-regions",
    "move-to-team",
    "create-backup",
    "delete-backup",
    "list-backup",
    "restore-backup",
    "enable-dailybackup",
    "team",
    "teams",
    "member",
    "vector",
    "index",
    "setplan",
    "transfer",
    "__emulator",
    "faults",
    "snapshot",
    "%zz",
    "%2F",
    "..",
    "",
  ),
  fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/),
);
const templates = [...new Set(operations.map((op) => op.path))];
const specPath = fc
  .tuple(
    fc.constantFrom(...templates),
    fc.array(fc.oneof(segment, fc.uuid()), { minLength: 2, maxLength: 2 }),
  )
  .map(([t, [a, b]]) => t.replace(/\{[^}]+\}/, a ?? "").replace(/\{[^}]+\}/, b ?? ""));
const path = fc.oneof(
  specPath,
  specPath,
  fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => `/${s.join("/")}`),
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/v2/${s.join("/")}`),
);
const queryKey = fc.constantFrom(
  "cursor",
  "messageId",
  "state",
  "url",
  "topicName",
  "scheduleId",
  "queueName",
  "fromDate",
  "toDate",
  "count",
  "order",
  "credentials",
  "x",
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom("latestFirst", "earliestFirst", "hide", "IN_PROGRESS", "1-1", "-5", "1e400", ""),
);
const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 5 });
const json = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .dictionary(
      fc.constantFrom(
        "name",
        "region",
        "primary_region",
        "read_regions",
        "tls",
        "team_id",
        "database_id",
        "backup_id",
        "team_name",
        "copy_cc",
        "member_email",
        "member_role",
        "similarity_function",
        "dimension_count",
        "target_plan",
        "target_account",
        "zzz",
      ),
      fc.jsonValue(),
    )
    .map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 40 }),
);
const auth = fc.constantFrom(
  undefined,
  `Bearer ${LOGS_TOKEN}`,
  `Basic ${Buffer.from(`${ALICE.email}:${ALICE.apiKey}`).toString("base64")}`,
  "Basic Og==",
  "Bearer",
);
const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

it("never answers 5xx, always answers JSON errors, and stays up", async () => {
  await fc.assert(
    fc.asyncProperty(
      method,
      path,
      query,
      fc.option(json, { nil: undefined }),
      auth,
      async (m, p, q, body, authorization) => {
        // Admin mutations would change the emulator under test (faults, restore); keep them out.
        fc.pre(!p.startsWith("/__emulator"));
        const qs = new URLSearchParams(q).toString();
        const headers: Record<string, string> = {};
        if (authorization) headers["authorization"] = authorization;
        const hasBody = body !== undefined && m !== "GET";
        const res = await fetch(`${emu.url}${p}${qs ? `?${qs}` : ""}`, {
          method: m,
          headers,
          ...(hasBody ? { body } : {}),
        });
        const text = await res.text();
        expect(res.status, `${m} ${p}?${qs} ${body ?? ""} -> ${text}`).toBeLessThan(500);
        if (res.status >= 400) {
          const parsed = JSON.parse(text) as { error?: unknown };
          expect(typeof parsed.error).toBe("string");
        } else {
          expect(() => JSON.parse(text)).not.toThrow();
        }
      },
    ),
    { numRuns: 300 },
  );
  const health = await fetch(`${emu.url}/__emulator/health`);
  expect(health.status).toBe(200);
});
