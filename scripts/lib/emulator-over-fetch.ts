// Setup file of the "emulator.fetch" vitest project (vitest.shared.ts): a test's `startEmulator()`
// gets an emulator with no socket. Its `url` names a host that does not exist
// (`http://emulator-N.in-process.invalid`), and `globalThis.fetch` hands every request to such a URL
// to that emulator's own `fetch` handler; a client that reached for a socket anyway would fail to
// resolve the host. Requests to any other URL (a test's own node:http server) go out as before.
import { afterAll, vi } from "vitest";
import type * as EmulatorModule from "@api-clients/emulator";

const { routes, counts } = vi.hoisted(() => ({
  routes: new Map<string, (request: Request) => Promise<Response>>(),
  counts: { started: 0, answered: 0 },
}));

vi.mock("@api-clients/emulator", async (importOriginal) => {
  const real = await importOriginal<typeof EmulatorModule>();
  const startEmulator: typeof real.startEmulator = async (options) => {
    const emu = real.createEmulator(options);
    const url = `http://emulator-${++counts.started}.in-process.invalid`;
    routes.set(url, (request) => emu.fetch(request));
    // The emulator's own properties (getters included), with a URL only its `fetch` answers.
    return Object.defineProperties(
      {},
      {
        ...Object.getOwnPropertyDescriptors(emu),
        url: { value: url, enumerable: true },
        port: { value: 0, enumerable: true },
        close: {
          value: async () => void routes.delete(url),
          enumerable: true,
        },
      },
    ) as EmulatorModule.Emulator;
  };
  return { ...real, startEmulator };
});

const socketFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const request = new Request(input, init);
  const route = routes.get(new URL(request.url).origin);
  if (route === undefined) return socketFetch(request);
  counts.answered++;
  return route(request);
};

// A file whose emulators were never asked anything did not run through this project's transport.
afterAll(() => {
  if (counts.started > 0 && counts.answered === 0) {
    throw new Error(
      "emulator.fetch project: emulators started, but no request reached emulator.fetch",
    );
  }
});
