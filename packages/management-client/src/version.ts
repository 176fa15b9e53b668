// Written by scripts/sync-versions.mjs from package.json (`pnpm version-packages` runs it).

/** The package name and version sent in the `User-Agent` header. */
export const USER_AGENT = "@api-clients/management-client/0.1.0";
