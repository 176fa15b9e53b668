// The page of the browser MSW test (scripts/test/browser-msw.test.ts): the emulator runs in the page
// (`createEmulator()`, no socket) behind Mock Service Worker's browser setup (`setupWorker`, its worker
// script served from the page's origin), and the logs and management clients call their default
// base URLs, which only the worker answers. The outcome is written into `window.__mswResult`.
import { createEmulator } from "@api-clients/emulator";
import { createHandlers } from "@api-clients/emulator/msw";
import { createLogsClient, DEFAULT_LOGS_BASE_URL } from "@api-clients/logs-client";
import {
  createManagementClient,
  DEFAULT_MANAGEMENT_BASE_URL,
  NotFoundError,
} from "@api-clients/management-client";
import { setupWorker } from "msw/browser";

async function run() {
  const emulator = createEmulator({ seedLogs: 25 });
  const worker = setupWorker(
    ...createHandlers(emulator, {
      baseUrl: [DEFAULT_LOGS_BASE_URL, DEFAULT_MANAGEMENT_BASE_URL],
    }),
  );
  await worker.start({
    serviceWorker: { url: "/mockServiceWorker.js" },
    onUnhandledRequest: "error",
    quiet: true,
  });
  try {
    const { logsToken, email, apiKey } = emulator.credentials;
    const logs = createLogsClient({ token: logsToken });
    const m = createManagementClient({ email, apiKey });

    const page = await logs.list({ count: 10 });
    const created = await m.databases.create({
      database_name: "in-a-browser",
      primary_region: "us-east-1",
    });
    const read = await m.databases.get(created.database_id);
    await m.databases.delete(created.database_id);
    const afterDelete = await m.databases.get(created.database_id).catch((e) => e);
    return {
      controlled: navigator.serviceWorker.controller !== null,
      logs: page.events.length,
      logsHaveIds: page.events.every((e) => typeof e.messageId === "string"),
      created: created.database_name,
      read: { id: read.database_id === created.database_id, name: read.database_name },
      afterDelete: afterDelete instanceof NotFoundError ? "NotFoundError" : String(afterDelete),
      requests: emulator.requests().map((r) => `${r.method} ${r.operationId} ${r.status}`),
    };
  } finally {
    worker.stop();
  }
}

run().then(
  (result) => void (window.__mswResult = result),
  (error) => void (window.__mswResult = { error: `${error?.name}: ${error?.message}` }),
);
