/**
 * `@api-clients/emulator/msw`: the emulator as Mock Service Worker request handlers, for tests that
 * run in browsers, jsdom or a runner without ports. Needs `msw` 2 or later (a peer dependency that
 * only this entry point loads).
 */
import { http, type HttpHandler } from "msw";
import type { InProcessEmulator } from "./emulator.js";

/** Options of {@link createHandlers}. */
export interface HandlersOptions {
  /**
   * The base URL (or URLs) the clients under test call, such as `https://qstash.upstash.io` and
   * `https://api.upstash.com`: requests under it are answered by the emulator, the rest are left to
   * other handlers. A path in the base URL is removed before the emulator routes the request.
   */
  baseUrl: string | readonly string[];
}

/**
 * MSW handlers that answer every request under `baseUrl` with the emulator's own answer (the same
 * status, headers and body as its HTTP server and `emulator.fetch`). A fault that resets the
 * connection becomes a network error (`Response.error()`).
 *
 * @example
 * import { setupServer } from "msw/node";
 * const emulator = createEmulator();
 * const server = setupServer(...createHandlers(emulator, { baseUrl: "https://api.upstash.com" }));
 * server.listen();
 */
export function createHandlers(
  emulator: Pick<InProcessEmulator, "fetch">,
  options: HandlersOptions,
): HttpHandler[] {
  const bases = typeof options.baseUrl === "string" ? [options.baseUrl] : options.baseUrl;
  return bases.map((baseUrl) => {
    const base = new URL(baseUrl);
    const prefix = base.pathname.replace(/\/+$/, "");
    return http.all(`${base.origin}${prefix}/*`, async ({ request }) => {
      const url = new URL(request.url);
      url.pathname = url.pathname.slice(prefix.length) || "/";
      const forwarded = prefix === "" ? request : new Request(url, request);
      try {
        return await emulator.fetch(forwarded);
      } catch (e) {
        if (e instanceof TypeError) return Response.error();
        throw e;
      }
    });
  });
}
