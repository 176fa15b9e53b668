// A fresh consumer's CommonJS script: `require()` of the ES-module-only packages (Node ≥ 20.19).
const { startEmulator } = require("@api-clients/emulator");
const { createLogsClient } = require("@api-clients/logs-client");
const { createManagementClient, ApiError } = require("@api-clients/management-client");

async function main() {
  // Every package of ours this project installed (the release test installs them all).
  const installed = Object.keys(require("./package.json").dependencies ?? {});
  for (const name of installed.filter((dep) => dep.startsWith("@api-clients/"))) {
    console.log(`cjs: ${name} from ${require.resolve(name)}`);
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
