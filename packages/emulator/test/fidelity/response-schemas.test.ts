// Every answer validates against the response schema the spec declares for its operation and status:
// generated requests over every operation of both APIs (valid and invalid inputs, both auth forms, rate
// limits reached), each answer's JSON body checked with a JSON-schema validator (ajv) over the specs'
// own schemas. OpenAPI 3.0's `nullable` becomes a `null` type; an `x-extensible-enum` is held to its
// listed values (the emulator sends only values the documents name), so nothing outside a documented
// value set passes unnoticed.
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import { parse } from "yaml";
import { expect, it } from "vitest";
import { operations } from "../../src/generated/operations.js";
import { createEmulator } from "../../src/index.js";
import { generateRequests, harvest, newHarvest } from "../forms/request-generator.js";
import { ALICE, BOB, LOGS_TOKEN } from "../helpers.js";

const REQUESTS = 10_000;
type Json = Record<string, unknown>;

/** An OpenAPI 3.0 schema as JSON Schema: `nullable` as a `null` type, `x-extensible-enum` as `enum`. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== "object" || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "x-extensible-enum") out["enum"] = v;
    else if (k === "nullable" || k === "example" || k.startsWith("x-")) continue;
    else out[k] = toJsonSchema(v);
  }
  const n = node as Json;
  if (n["nullable"] === true) {
    if (typeof out["type"] === "string") out["type"] = [out["type"], "null"];
    if (Array.isArray(out["enum"])) out["enum"] = [...(out["enum"] as unknown[]), null];
  }
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const docs = Object.fromEntries(
  (["logs", "management"] as const).map((api) => {
    const doc = parse(
      readFileSync(new URL(`../../../../specs/${api}.openapi.yaml`, import.meta.url), "utf8"),
      {
        maxAliasCount: -1,
      },
    ) as Json;
    ajv.addSchema({ $id: api, components: toJsonSchema(doc["components"] as Json) });
    return [api, doc];
  }),
) as Record<"logs" | "management", Json>;

/** The response object the spec declares for `status` (exact, then `4XX`/`5XX`, then `default`). */
function declared(api: "logs" | "management", responses: Json, status: number): Json | undefined {
  let r = (responses[String(status)] ??
    responses[`${String(status)[0]}XX`] ??
    responses["default"]) as Json | undefined;
  const ref = r?.["$ref"];
  if (typeof ref === "string") {
    r = (docs[api]["components"] as Json)["responses"] as Json;
    r = r[ref.split("/").at(-1) as string] as Json;
  }
  return r;
}

const validators = new Map<string, ValidateFunction | null>();
/** The validator of an operation's answer with `status`, `null` when the spec declares no JSON body. */
function validatorFor(
  api: "logs" | "management",
  operationId: string,
  status: number,
): ValidateFunction | null | undefined {
  const key = `${api} ${operationId} ${status}`;
  if (validators.has(key)) return validators.get(key);
  const paths = docs[api]["paths"] as Record<string, Record<string, Json>>;
  const op = Object.values(paths)
    .flatMap((item) => Object.values(item))
    .find((o) => o["operationId"] === operationId);
  if (!op) return undefined;
  const response = declared(api, op["responses"] as Json, status);
  if (!response) return undefined;
  const schema = (
    (response["content"] as Json | undefined)?.["application/json"] as Json | undefined
  )?.["schema"] as Json | undefined;
  const v = schema === undefined ? null : ajv.compile(rebase(api, toJsonSchema(schema)) as Json);
  validators.set(key, v);
  return v;
}

/** Points a response schema's local `$ref`s into its document's registered schema. */
function rebase(api: string, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => rebase(api, n));
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" ? `${api}${v}` : rebase(api, v),
    ]),
  );
}

/** The error schema of each document, for answers no operation was routed to (404 path, 405 method). */
const errorSchemas = (["logs", "management"] as const).map((api) =>
  ajv.compile({ $ref: `${api}#/components/schemas/Error` }),
);

const basic = `Basic ${btoa(`${ALICE.email}:${ALICE.apiKey}`)}`;

it(`every answer to ${REQUESTS} generated requests and a scripted tour validates against the schema its spec declares`, async () => {
  let operationId: string | undefined;
  const emu = createEmulator({
    seed: 5,
    idSeed: 7,
    seedLogs: 300,
    logsToken: LOGS_TOKEN,
    accounts: [ALICE, BOB],
    burstLimit: 4,
    dailyQuota: 400,
    onRequest: (r) => (operationId = r.operationId),
  });
  const api = new Map(operations.map((o) => [o.operationId, o.api]));
  const h = newHarvest();
  const invalid: string[] = [];
  const undeclared = new Set<string>();
  const covered = new Map<string, Set<number>>();
  let checked = 0;

  /** Sends one request, validates its answer, notes what it covered; returns the body. */
  const send = async (
    method: string,
    target: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<unknown> => {
    operationId = undefined;
    const res = await emu.fetch(`http://emulator.test${target}`, {
      method,
      headers,
      body: body ?? null,
    });
    const text = await res.text();
    const json: unknown = JSON.parse(text);
    const op = operationId as string | undefined;
    const where = `${method} ${target} → ${res.status}`;
    checked++;
    if (op === undefined) {
      // No operation (unknown path, wrong method): valid against both documents' Error.
      for (const v of errorSchemas)
        if (!v(json)) invalid.push(`${where}: ${ajv.errorsText(v.errors)}`);
      return json;
    }
    const v = validatorFor(api.get(op) as "logs" | "management", op, res.status);
    if (v === undefined) undeclared.add(`${op} ${res.status}`);
    else if (v !== null && !v(json))
      invalid.push(`${op} ${where}: ${ajv.errorsText(v.errors)} in ${text.slice(0, 200)}`);
    covered.set(op, (covered.get(op) ?? new Set()).add(res.status));
    harvest(h, op, json);
    return json;
  };

  for (const req of generateRequests(
    20261128,
    REQUESTS,
    { logsToken: LOGS_TOKEN, accounts: [ALICE, BOB] },
    h,
  )) {
    await send(req.method, req.target, req.headers, req.body);
  }
  // A scripted tour through the operations random inputs rarely get to succeed.
  emu.reset();
  const m = (method: string, path: string, body?: unknown) =>
    send(
      method,
      path,
      { authorization: basic, "content-type": "application/json" },
      body === undefined ? undefined : JSON.stringify(body),
    ) as Promise<Record<string, string>>;
  const db = await m("POST", "/v2/redis/database", {
    database_name: "tour",
    primary_region: "us-east-1",
  });
  await m("POST", `/v2/redis/create-backup/${db["database_id"]}`, { name: "b" });
  const [backup] = (await m(
    "GET",
    `/v2/redis/list-backup/${db["database_id"]}`,
  )) as unknown as Record<string, string>[];
  await m("POST", `/v2/redis/restore-backup/${db["database_id"]}`, {
    backup_id: backup?.["backup_id"],
  });
  await m("DELETE", `/v2/redis/delete-backup/${db["database_id"]}/${backup?.["backup_id"]}`);
  const team = await m("POST", "/v2/team", { team_name: "tour", copy_cc: false });
  await m("POST", "/v2/teams/member", {
    team_id: team["team_id"],
    member_email: BOB.email,
    member_role: "dev",
  });
  await m("DELETE", "/v2/teams/member", { team_id: team["team_id"], member_email: BOB.email });
  const vector = await m("POST", "/v2/vector/index", {
    name: "v",
    region: "us-east-1",
    similarity_function: "COSINE",
    dimension_count: 8,
  });
  await m("POST", `/v2/vector/index/${vector["id"]}/reset-password`);
  const search = await m("POST", "/v2/search", { name: "s", region: "eu-west-1", type: "payg" });
  await m("POST", `/v2/search/${search["id"]}/transfer`, { target_account: team["team_id"] });

  const no200 = operations
    .filter((o) => !covered.get(o.operationId)?.has(200))
    .map((o) => o.operationId);
  const noError = operations
    .filter((o) => ![...(covered.get(o.operationId) ?? [])].some((x) => x >= 400))
    .map((o) => o.operationId);
  console.log(
    `${checked} answers checked over ${covered.size} of ${operations.length} operations; without a 200: ${no200.join(", ") || "none"}; without an error: ${noError.join(", ") || "none"}; undeclared statuses: ${[...undeclared].join(", ") || "none"}`,
  );
  expect(invalid.slice(0, 10)).toEqual([]);
  expect(invalid).toHaveLength(0);
  expect(undeclared).toEqual(new Set());
  // The run covers what it claims: a 200 of every operation, an error of every one that can refuse
  // (getQStashIPv4 needs no credentials and takes no input).
  expect(no200).toEqual([]);
  expect(noError).toEqual(["getQStashIPv4"]);
}, 300_000);

it("log pages under `logs` (the option) validate too, and hold the entries", async () => {
  const emu = createEmulator({ seed: 5, seedLogs: 50, logsToken: LOGS_TOKEN, logsField: "logs" });
  const validate = validatorFor("logs", "listLogs", 200) as ValidateFunction;
  const listEvents = validatorFor("logs", "listEvents", 200) as ValidateFunction;
  let cursor = "";
  let entries = 0;
  do {
    const res = await emu.fetch(
      `http://emulator.test/v2/logs?count=20${cursor ? `&cursor=${cursor}` : ""}`,
      {
        headers: { authorization: `Bearer ${LOGS_TOKEN}` },
      },
    );
    const page = (await res.json()) as { logs: unknown[]; cursor?: string };
    expect(validate(page), ajv.errorsText(validate.errors)).toBe(true);
    expect(page).not.toHaveProperty("events");
    entries += page.logs.length;
    cursor = page.cursor ?? "";
  } while (cursor);
  expect(entries).toBe(50);
  const events = await emu.fetch("http://emulator.test/v2/events?count=5", {
    headers: { authorization: `Bearer ${LOGS_TOKEN}` },
  });
  expect(listEvents(await events.json()), ajv.errorsText(listEvents.errors)).toBe(true);
});
