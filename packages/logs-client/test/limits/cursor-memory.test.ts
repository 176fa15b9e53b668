// Issue #24, item 4 ("done when"): paging 1,000 pages whose cursors are 1 MB each keeps the heap's
// growth under 64 MiB (the cursors remembered to catch a repeat are bounded in bytes, not only in
// count: 10,000 of them used to grow the heap by ~1 MiB a page). The client runs in a child process
// (cursor-memory-child.mjs, over the built package) for a clean reading.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";

const CHILD = fileURLToPath(new URL("./cursor-memory-child.mjs", import.meta.url));
const MiB = 1024 * 1024;
const PAGES = 1000;
const FILLER = "x".repeat(MiB);

let server: Server;
let baseUrl: string;
let requests = 0;
beforeAll(async () => {
  // One entry a page and a fresh 1 MB cursor (`<n>.xxxx…`), forever; a 1 MB cursor needs a large
  // header limit, as a real server with such cursors would have.
  server = createServer({ maxHeaderSize: 4 * MiB }, (req, res) => {
    requests++;
    const cursor = new URL(req.url ?? "/", "http://x").searchParams.get("cursor");
    const n = cursor === null ? 0 : Number(cursor.slice(0, cursor.indexOf(".")));
    const entry = { time: 1_700_000_000_000 + n, messageId: `msg_${n}`, state: "DELIVERED" };
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ events: [entry], cursor: `${n + 1}.${FILLER}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function runChild(pages: number): Promise<{ pages: number; growth: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", CHILD, baseUrl, String(pages)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`child exited with ${code}: ${err}`));
      else resolve(JSON.parse(out) as { pages: number; growth: number });
    });
  });
}

it(`paging ${PAGES} pages of 1 MB cursors grows the heap by less than 64 MiB`, async () => {
  const reading = await runChild(PAGES);
  expect(reading.pages).toBe(PAGES);
  expect(requests).toBe(PAGES + 1);
  expect(reading.growth).toBeLessThan(64 * MiB);
}, 600_000); // ~40 s on an idle machine (2 MB a page over loopback); minutes under load
