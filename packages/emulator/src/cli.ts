#!/usr/bin/env node
// `api-clients-emulator`: starts the emulator from a terminal and stops it on SIGINT/SIGTERM.
import { parseArgs } from "node:util";
import { startEmulator, type EmulatorAccount, type EmulatorOptions } from "./emulator.js";
import { formatRequest } from "./internal/request-log.js";

const USAGE = `Usage: api-clients-emulator [options]

  --port N              TCP port (0 picks a free one; default 0)
  --host HOST           interface to bind (default 127.0.0.1)
  --seed-logs N         generate N log entries at start (default 0)
  --seed N              seed of the log generator (default 1)
  --logs-token TOKEN    Bearer token of the logs API (default: random)
  --burst-limit N       logs requests per second per token; more get 429 (default: unlimited)
  --daily-quota N       logs requests per UTC day per token; more get 429 (default: unlimited)
  --account EMAIL:KEY   management account (repeatable; default: one random account)
  --cors-origin ORIGIN  origin allowed to read the APIs from a browser (repeatable; default "*";
                        "none" sends no CORS headers)
  --admin-host NAME     extra Host name the admin API accepts besides localhost, 127.x.x.x, [::1]
                        (repeatable)
  --admin-origin ORIGIN extra page origin allowed to call the admin API besides loopback pages
                        (repeatable)
  --log-requests        print each API request on stderr once answered (method, path, status,
                        operationId, traceparent)
  --help                show this text`;

/** `value` as one shell word: as is when it is plain, else single-quoted. */
function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function fail(message: string): never {
  process.stderr.write(`api-clients-emulator: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function integer(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw))
    fail(`--${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "seed-logs": { type: "string" },
        seed: { type: "string" },
        "logs-token": { type: "string" },
        "burst-limit": { type: "string" },
        "daily-quota": { type: "string" },
        account: { type: "string", multiple: true },
        "cors-origin": { type: "string", multiple: true },
        "admin-host": { type: "string", multiple: true },
        "admin-origin": { type: "string", multiple: true },
        "log-requests": { type: "boolean" },
        help: { type: "boolean" },
      },
      strict: true,
    }));
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const accounts: EmulatorAccount[] = (values.account ?? []).map((a) => {
    const i = a.indexOf(":");
    if (i <= 0 || i === a.length - 1)
      fail(`--account must be email:apiKey, got ${JSON.stringify(a)}`);
    return { email: a.slice(0, i), apiKey: a.slice(i + 1) };
  });
  const options: EmulatorOptions = { accounts };
  const port = integer("port", values.port);
  const seedLogs = integer("seed-logs", values["seed-logs"]);
  const seed = integer("seed", values.seed);
  if (port !== undefined) options.port = port;
  if (seedLogs !== undefined) options.seedLogs = seedLogs;
  if (seed !== undefined) options.seed = seed;
  const burstLimit = integer("burst-limit", values["burst-limit"]);
  const dailyQuota = integer("daily-quota", values["daily-quota"]);
  if (burstLimit !== undefined) options.burstLimit = burstLimit;
  if (dailyQuota !== undefined) options.dailyQuota = dailyQuota;
  if (values.host !== undefined) options.host = values.host;
  if (values["logs-token"] !== undefined) options.logsToken = values["logs-token"];
  const cors = values["cors-origin"];
  if (cors !== undefined) {
    if (cors.includes("none")) {
      if (cors.length > 1) fail("--cors-origin none cannot be combined with origins");
      options.corsOrigin = false;
    } else options.corsOrigin = cors.includes("*") ? "*" : cors;
  }
  if (values["admin-host"] !== undefined) options.adminHosts = values["admin-host"];
  if (values["admin-origin"] !== undefined) options.adminOrigins = values["admin-origin"];
  if (values["log-requests"]) {
    options.onRequest = (record) => process.stderr.write(`${formatRequest(record)}\n`);
  }

  let emu;
  try {
    emu = await startEmulator(options);
  } catch (e) {
    // An invalid option (a bad origin, an account without key) is a usage error.
    if (e instanceof TypeError) fail(e.message);
    throw e;
  }

  // Handlers first: whoever waits for the lines below may send SIGINT as soon as it reads them.
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    emu.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`api-clients-emulator: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  const { logsToken, email, apiKey } = emu.credentials;
  process.stdout.write(
    [
      `Emulator listening on ${emu.url}`,
      `  logs API:        GET ${emu.url}/v2/logs   (Authorization: Bearer ${logsToken})`,
      `  management API:  ${emu.url}/v2/...       (HTTP Basic ${email}:${apiKey})`,
      ...emu.accounts.slice(1).map((a) => `  also account:    ${a.email}:${a.apiKey}`),
      `  admin API:       ${emu.url}/__emulator/  (faults, reset, snapshot, restore, logs)`,
      `  log entries:     ${emu.logs.size}`,
      "# Point both clients and the api-clients command line here (paste into a shell):",
      ...Object.entries({
        QSTASH_URL: emu.url,
        QSTASH_TOKEN: logsToken,
        UPSTASH_API_URL: emu.url,
        UPSTASH_EMAIL: email,
        UPSTASH_API_KEY: apiKey,
      }).map(([name, value]) => `export ${name}=${shellQuote(value)}`),
      "",
    ].join("\n"),
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`api-clients-emulator: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
