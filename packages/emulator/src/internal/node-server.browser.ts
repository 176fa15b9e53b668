// What a browser or Worker bundle gets in place of `node-server.ts` (package.json's `browser` field,
// which esbuild, webpack, Vite and Rollup read): the HTTP form needs `node:http`, while
// `createEmulator()`, its `fetch` and the MSW handlers need nothing of Node.
import type { Connection } from "./handler.js";
import type { ListenOptions } from "./node-server.js";

/** `startEmulator()` in a browser or a Worker: says what to use there instead. */
export function listen(
  _handle: (request: Request, conn: Connection) => Promise<Response>,
  _options: ListenOptions,
): Promise<{ port: number; close: () => Promise<void> }> {
  return Promise.reject(
    new Error(
      "startEmulator() serves over node:http, which this runtime lacks: use createEmulator() and its fetch (or @api-clients/emulator/msw) instead",
    ),
  );
}
