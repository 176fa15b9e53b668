/**
 * A stand-in Redis on a free loopback port for the faults a real one rarely shows: it speaks enough
 * RESP for ioredis to connect (INFO, CLIENT, SCRIPT), then answers every script (`EVALSHA`/`EVAL`) with
 * a reply the test chooses (raw RESP, e.g. `+OK\r\n`), or never answers while stalled. It counts the
 * scripts it received.
 */
import { createServer, type AddressInfo, type Socket } from "node:net";

/** A running stand-in. */
export interface FakeRedis {
  readonly url: string;
  /** Scripts received so far (answered or not). */
  readonly scripts: number;
  /** The arguments of each script received (`EVALSHA sha numkeys keys… argv…`), in order. */
  readonly received: readonly string[][];
  /** The raw RESP answer to each script from now on; `"stall"` answers nothing. */
  answer(reply: string | "stall"): void;
  close(): Promise<void>;
}

/** Reads complete RESP arrays of bulk strings off `buffer`; returns them and what is left. */
function commands(buffer: string): { parsed: string[][]; rest: string } {
  const parsed: string[][] = [];
  let at = 0;
  for (;;) {
    const header = /^\*(\d+)\r\n/.exec(buffer.slice(at));
    if (header === null) break;
    let cursor = at + header[0].length;
    const args: string[] = [];
    let complete = true;
    for (let i = 0; i < Number(header[1]); i++) {
      const bulk = /^\$(\d+)\r\n/.exec(buffer.slice(cursor));
      const length = bulk === null ? 0 : Number(bulk[1]);
      if (bulk === null || buffer.length < cursor + bulk[0].length + length + 2) {
        complete = false;
        break;
      }
      cursor += bulk[0].length;
      args.push(buffer.slice(cursor, cursor + length));
      cursor += length + 2;
    }
    if (!complete) break;
    parsed.push(args);
    at = cursor;
  }
  return { parsed, rest: buffer.slice(at) };
}

const INFO = "# Server\r\nredis_version:7.0.0\r\nloading:0\r\n";

/** Starts the stand-in, answering scripts with `reply`. */
export async function startFakeRedis(reply: string | "stall"): Promise<FakeRedis> {
  const received: string[][] = [];
  let current = reply;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buffer = "";
    socket.on("data", (chunk: Buffer) => {
      const { parsed, rest } = commands(buffer + chunk.toString("latin1"));
      buffer = rest;
      for (const args of parsed) {
        const command = (args[0] ?? "").toUpperCase();
        if (command === "INFO") socket.write(`$${INFO.length}\r\n${INFO}\r\n`);
        else if (command === "EVALSHA" || command === "EVAL") {
          received.push(args);
          if (current !== "stall") socket.write(current);
        } else socket.write("+OK\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    get scripts() {
      return received.length;
    },
    received,
    answer(next) {
      current = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
