// A fresh consumer's CommonJS script: `require()` of the ES-module-only packages (Node ≥ 20.19).
const { startEmulator } = require("@api-clients/emulator");
const { createLogsClient } = require("@api-clients/logs-client");
const { createManagementClient, ApiError } = require("@api-clients/management-client");

async function main() {
  for (const pkg of [
    "core",
    "logs-client",
    "management-client",
    "emulator",
    "cli",
    "otel",
    "rate-limit-redis",
  ]) {
    console.log(`cjs: @api-clients/${pkg} from ${require.resolve(`@api-clients/${pkg}`)}`);
  }
  const emulator = await startEmulator({ seedLogs: 5 });
  try {
    const { logsToken, email, apiKey } = emulator.credentials;
    const page = await createLogsClient({ token: logsToken, baseUrl: emulator.url }).list({
      count: 3,
    });
    console.log(`cjs: listed ${page.events.length} log entries`);
    const management = createManagementClient({ email, apiKey, baseUrl: emulator.url });
    const db = await management.databases.create({
      name: "from-require",
      primary_region: "us-east-1",
    });
    console.log(`cjs: created database ${db.database_name}`);
    const error = await management.databases.get("no-such-id").catch((e) => e);
    console.log(
      `cjs: missing database is an ApiError ${error instanceof ApiError} with status ${error.status}`,
    );
  } finally {
    await emulator.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
