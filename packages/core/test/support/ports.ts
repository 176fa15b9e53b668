// A free TCP port on 127.0.0.1, for the tests and the bench that start a child server (prism,
// redis-server) on a port of their own.
import { createServer } from "node:net";

/** Listens on port 0 of 127.0.0.1, reads the port the system chose, and closes again. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}
