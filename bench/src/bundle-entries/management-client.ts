// Bundle-size entry: what an app pays for `createManagementClient`.
export { createManagementClient } from "@api-clients/management-client";
