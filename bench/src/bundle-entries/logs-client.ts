// Bundle-size entry: what an app pays for `createLogsClient`.
export { createLogsClient } from "@api-clients/logs-client";
