// A fresh consumer's ES module script: starts the installed emulator, lists logs with the logs client
// and creates a database with the management client, then a call traced by @api-clients/otel and one
// paced by @api-clients/rate-limit-redis (a Redis that refuses: the in-process gate decides and a
// warning says so), printing what it got.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startEmulator } from "@api-clients/emulator";
import {
  AuthenticationError as LogsAuthenticationError,
  createLogsClient,
} from "@api-clients/logs-client";
import {
  ApiClientError,
  AuthenticationError,
  createManagementClient,
} from "@api-clients/management-client";
import { instrument } from "@api-clients/otel";
import { createRedisRateLimiter } from "@api-clients/rate-limit-redis";

// Every package of ours this project installed (the release test installs them all).
const { dependencies = {} } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url)));
for (const name of Object.keys(dependencies).filter((dep) => dep.startsWith("@api-clients/"))) {
  console.log(`esm: ${name} from ${fileURLToPath(import.meta.resolve(name))}`);
}

const emulator = await startEmulator({ seedLogs: 25 });
try {
  const { logsToken, email, apiKey } = emulator.credentials;
  const logs = createLogsClient({ token: logsToken, baseUrl: emulator.url });
  const page = await logs.list({ count: 10, order: "earliestFirst" });
  console.log(
    `esm: listed ${page.events.length} log entries, next cursor ${page.cursor ? "present" : "absent"}`,
  );
  let all = 0;
  for await (const entry of logs.iterate({}, { prefetch: true })) if (entry.messageId) all += 1;
  console.log(`esm: iterated ${all} log entries`);

  const management = createManagementClient({ email, apiKey, baseUrl: emulator.url });
  const db = await management.databases.create({
    name: "release-check",
    primary_region: "eu-west-1",
  });
  const listed = await management.databases.list();
  console.log(`esm: created database ${db.database_name} (${listed.length} in the account)`);

  // One runtime copy: an error thrown by the logs client is the management client's class too.
  const wrong = createLogsClient({ token: "wrong-token", baseUrl: emulator.url, maxRetries: 0 });
  const error = await wrong.list({ count: 1 }).catch((e) => e);
  console.log(
    `esm: logs error instanceof management AuthenticationError ${error instanceof AuthenticationError}, ` +
      `ApiClientError ${error instanceof ApiClientError}, same class ${LogsAuthenticationError === AuthenticationError}`,
  );

  // The global (no-op) providers of @opentelemetry/api, the peer dependency npm installed.
  const stop = instrument();
  const traced = await logs.list({ count: 1 });
  stop();
  console.log(`esm: otel instrument() around a call, ${traced.events.length} entry, unsubscribed`);

  // Port 1 refuses: ioredis (installed with the package) fails at once and the call goes ahead.
  const rateLimiter = createRedisRateLimiter({ url: "redis://127.0.0.1:1" });
  const warnings = [];
  const paced = createLogsClient({
    token: logsToken,
    baseUrl: emulator.url,
    rateLimiter,
    logger: (event) => event.type === "warning" && warnings.push(event.message),
  });
  const got = await paced.list({ count: 1 });
  await rateLimiter.close();
  console.log(
    `esm: rate-limit-redis fallback, ${got.events.length} entry, warning ${/cannot be reached/.test(warnings[0])}`,
  );
} finally {
  await emulator.close();
}
