/** The package name and version sent in the `User-Agent` header. */
export const USER_AGENT = "@api-clients/logs-client/0.0.0";
