// A fresh consumer's ES module script: starts the installed emulator, lists logs with the logs client
// and creates a database with the management client, printing what it got.
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

for (const pkg of ["core", "logs-client", "management-client", "emulator", "cli"]) {
  console.log(
    `esm: @api-clients/${pkg} from ${fileURLToPath(import.meta.resolve(`@api-clients/${pkg}`))}`,
  );
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
} finally {
  await emulator.close();
}
