// The scenario every runtime of `pnpm test:runtimes` runs, imported from the packed packages as a
// consumer installs them. Web APIs only (fetch, timers), so Node, Bun, Deno, workerd and a browser
// run the same file. The host starts the emulator with 25 log entries and these faults (added over
// its admin HTTP API before the run):
//   GET /v2/logs      429 once (retry-after-ms: 50): the first page is retried and recovered
//   listTeams         429 always (Retry-After: 2): a RateLimitError with retryAfterMs 2000
//   listVectorIndexes 503 always: an InternalServerError
// Where `process` exists (Node, Bun, Deno, workerd with nodejs_compat) the clients publish on the
// `diagnostics_channel` tracing channels and a subscriber's traceparent reaches the emulator; in a
// browser there is no tracing, and calls work the same. The server-side entries add the
// `@api-clients/otel` check (otel.mjs), which the browser bundle never imports.
import {
  ApiClientError,
  createLogsClient,
  RateLimitError as LogsRateLimitError,
} from "@api-clients/logs-client";
import {
  createManagementClient,
  InternalServerError,
  RateLimitError,
} from "@api-clients/management-client";

/** Emulator faults the scenario expects, for the host to add before running it. */
export const FAULTS = [
  // Retry-After takes whole seconds only (RFC 9110): a short wait goes in retry-after-ms.
  { method: "GET", path: "/v2/logs", status: 429, headers: { "retry-after-ms": "50" }, times: 1 },
  { operationId: "listTeams", status: 429, retryAfter: 2, times: "always" },
  { operationId: "listVectorIndexes", status: 503, times: "always" },
];

/** Log entries the host seeds: three pages of 10. */
export const SEED_LOGS = 25;

/**
 * Runs every check and never throws: each check reports `ok` and what it saw. `otelCheck` (from
 * otel.mjs, given by the server-side entries) adds the `@api-clients/otel` check.
 * @param {{ baseUrl: string, logsToken: string, email: string, apiKey: string }} config
 * @param {{ otelCheck?: (logs: unknown, baseUrl: string) => Promise<[boolean, string]> }} [extra]
 * @returns {Promise<{ name: string, ok: boolean, detail: string }[]>}
 */
export async function runScenario({ baseUrl, logsToken, email, apiKey }, { otelCheck } = {}) {
  const checks = [];
  const check = async (name, body) => {
    try {
      const [ok, detail] = await body();
      checks.push({ name, ok, detail });
    } catch (error) {
      checks.push({ name, ok: false, detail: `threw ${describe(error)}` });
    }
  };

  const events = [];
  const logs = createLogsClient({
    token: logsToken,
    baseUrl,
    logger: (event) => events.push(event.type),
  });
  const m = createManagementClient({ email, apiKey, baseUrl });

  await check("one copy of the error classes", () => {
    const ok =
      RateLimitError === LogsRateLimitError &&
      RateLimitError.prototype instanceof ApiClientError &&
      InternalServerError.prototype instanceof ApiClientError;
    return [ok, `RateLimitError shared by both clients: ${RateLimitError === LogsRateLimitError}`];
  });

  await check("an injected 429 on the first page is retried", async () => {
    const page = await logs.list({ count: 10 });
    const retries = events.filter((type) => type === "retry").length;
    return [
      page.events.length === 10 && retries === 1,
      `${page.events.length} entries, ${retries} retry`,
    ];
  });

  await check("pagination across 3 pages", async () => {
    const sizes = [];
    const ids = new Set();
    for await (const page of logs.pages({ count: 10 })) {
      sizes.push(page.events.length);
      for (const entry of page.events) ids.add(`${entry.messageId}/${entry.time}/${entry.state}`);
    }
    const ok = sizes.join(",") === "10,10,5" && ids.size === SEED_LOGS;
    return [ok, `pages of ${sizes.join(", ")}; ${ids.size} distinct entries`];
  });

  await check("create, list and delete a database", async () => {
    const db = await m.databases.create({
      database_name: "runtime-check",
      primary_region: "us-east-1",
    });
    const listed = (await m.databases.list()).some((d) => d.database_id === db.database_id);
    await m.databases.delete(db.database_id);
    const gone = !(await m.databases.list()).some((d) => d.database_id === db.database_id);
    return [listed && gone, `listed after create ${listed}, gone after delete ${gone}`];
  });

  await check("an injected 429 is a RateLimitError", async () => {
    const error = await m.teams.list({ maxRetries: 0 }).then(
      () => undefined,
      (e) => e,
    );
    const ok =
      error instanceof RateLimitError &&
      error instanceof LogsRateLimitError &&
      error instanceof ApiClientError &&
      error.status === 429 &&
      error.retryAfterMs === 2000;
    return [ok, describe(error)];
  });

  await check("an injected 503 is an InternalServerError", async () => {
    const error = await m.vector.list({ maxRetries: 0 }).then(
      () => undefined,
      (e) => e,
    );
    const ok =
      error instanceof InternalServerError &&
      error instanceof ApiClientError &&
      error.status === 503;
    return [ok, describe(error)];
  });

  await check("tracing channels", () => tracingCheck(logs, baseUrl));
  if (otelCheck) await check("@api-clients/otel spans", () => otelCheck(logs, baseUrl));

  return checks;
}

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/** Subscribes to both tracing channels around one call; checks what they carried and what was sent. */
async function tracingCheck(logs, baseUrl) {
  const dc = globalThis.process?.getBuiltinModule?.("node:diagnostics_channel");
  if (globalThis.process === undefined || dc?.tracingChannel === undefined) {
    const page = await logs.list({ count: 1 });
    const expected = globalThis.process === undefined;
    return [
      expected && page.events.length === 1,
      expected
        ? "no process here: no tracing, and the call works"
        : "process exists but process.getBuiltinModule('node:diagnostics_channel') does not",
    ];
  }
  const seen = [];
  const handlers = (name) => ({
    start(context) {
      seen.push(`${name} start`);
      if (name === "attempt") context.setHeader("traceparent", TRACEPARENT);
    },
    asyncEnd(context) {
      const { operationId, path, attempt, status, url } = context;
      seen.push(`${name} end ${operationId} ${path} #${attempt} ${status} ${url.split("?")[1]}`);
    },
  });
  const channels = ["call", "attempt"].map((name) => [
    dc.tracingChannel(`api-clients:${name}`),
    handlers(name),
  ]);
  for (const [channel, handler] of channels) channel.subscribe(handler);
  try {
    await logs.list({ count: 2, topicName: "secret-topic" });
  } finally {
    for (const [channel, handler] of channels) channel.unsubscribe(handler);
  }
  const requests = await (await fetch(`${baseUrl}/__emulator/requests`)).json();
  const sent = requests.filter((r) => r.operationId === "listLogs").at(-1)?.traceparent;
  const want = [
    "call start",
    "attempt start",
    "attempt end listLogs /v2/logs #1 200 count&topicName",
    "call end listLogs /v2/logs #1 200 count&topicName",
  ];
  const ok = seen.join("; ") === want.join("; ") && sent === TRACEPARENT;
  return [ok, `${seen.join("; ")}; the emulator saw traceparent ${sent}`];
}

function describe(error) {
  if (error === undefined) return "no error";
  if (!(error instanceof Error)) return String(error);
  const fields = [error.constructor?.name ?? "Error"];
  if ("status" in error) fields.push(`status ${error.status}`);
  if ("retryAfterMs" in error) fields.push(`retryAfterMs ${error.retryAfterMs}`);
  return `${fields.join(", ")}: ${error.message}`;
}
