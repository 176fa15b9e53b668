// The emulator as MSW handlers in a real browser (issue #34): a page bundles the logs and management
// clients, the emulator (`createEmulator()`) and MSW's browser setup (`setupWorker`, with its
// mockServiceWorker.js served from the page's origin), lists logs and creates, reads and deletes a
// database through `createHandlers(emulator, { baseUrl })`, in headless Chromium (Debian's
// /usr/bin/chromium, driven by the cached playwright-core, as scripts/test-runtimes.mjs does).
// The page is bundled with esbuild for `platform: "browser"` from the built packages (`dist/`), so a
// `node:*` import on the emulator's fetch path fails the bundle, naming the module and its importer.
//
//   pnpm exec vitest run scripts/test/browser-msw.test.ts
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REPO_ROOT } from "../lib/pack.mjs";
import { RUNTIME_TOOLS } from "../lib/runtime-tools.mjs";
import { ensureCachedNpmTool } from "../lib/tool-download.mjs";

const CHROMIUM = "/usr/bin/chromium";
/** The page's own bound: its result, or the test fails with the page's console. */
const PAGE_TIMEOUT_MS = 30_000;
const MSW = join(REPO_ROOT, "packages", "emulator", "node_modules", "msw");

let work = "";
let server: Server | undefined;
let browser: { close(): Promise<void> } | undefined;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "browser-msw-"));
});
afterAll(async () => {
  await browser?.close();
  server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Bundles the page for the browser, resolving the workspace packages as a consumer installs them. */
async function bundlePage(): Promise<string> {
  const modules = join(work, "node_modules");
  for (const pkg of ["core", "emulator", "logs-client", "management-client"]) {
    const dir = join(REPO_ROOT, "packages", pkg);
    if (!existsSync(join(dir, "dist")))
      throw new Error(`packages/${pkg}/dist is missing: run pnpm build`);
    mkdirSync(join(modules, "@api-clients"), { recursive: true });
    symlinkSync(dir, join(modules, "@api-clients", pkg), "dir");
  }
  symlinkSync(MSW, join(modules, "msw"), "dir");
  const { build } = await import("esbuild");
  const outfile = join(work, "page.js");
  await build({
    entryPoints: [join(REPO_ROOT, "scripts", "runtimes", "msw", "page.mjs")],
    nodePaths: [modules],
    outfile,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  });
  return outfile;
}

it("the logs and management clients talk to the emulator through MSW's setupWorker in Chromium", async () => {
  const bundle = await bundlePage();
  const files: Record<string, [string, string]> = {
    "/": [
      "text/html",
      '<!doctype html><meta charset="utf-8"><title>msw</title><script type="module" src="/page.js"></script>',
    ],
    "/page.js": ["text/javascript", readFileSync(bundle, "utf8")],
    "/mockServiceWorker.js": [
      "text/javascript",
      readFileSync(join(MSW, "lib", "mockServiceWorker.js"), "utf8"),
    ],
  };
  server = createServer((req, res) => {
    const file = files[req.url ?? ""];
    if (file === undefined) return void res.writeHead(req.url === "/favicon.ico" ? 204 : 404).end();
    res.writeHead(200, { "content-type": `${file[0]}; charset=utf-8` }).end(file[1]);
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));

  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const playwright = await ensureCachedNpmTool({
    ...RUNTIME_TOOLS["playwright-core"],
    deadline: Date.now() + 5 * 60_000,
  });
  const { chromium } = await import(pathToFileURL(join(playwright, "index.mjs")).href);
  const launched = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  browser = launched;
  const page = await launched.newPage();
  const messages: string[] = [];
  page.on("console", (m: { type(): string; text(): string }) =>
    messages.push(`${m.type()}: ${m.text()}`),
  );
  page.on("pageerror", (e: Error) => messages.push(`pageerror: ${e.message}`));
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  try {
    await page.waitForFunction(() => "__mswResult" in window, null, { timeout: PAGE_TIMEOUT_MS });
  } catch (error) {
    throw new Error(
      `no result from the page (${(error as Error).message}):\n${messages.join("\n")}`,
    );
  }
  const result = await page.evaluate(
    () => (window as unknown as { __mswResult: unknown }).__mswResult,
  );
  expect(result, messages.join("\n")).toEqual({
    controlled: true,
    logs: 10,
    logsHaveIds: true,
    created: "in-a-browser",
    read: { id: true, name: "in-a-browser" },
    afterDelete: "NotFoundError",
    requests: [
      "GET listLogs 200",
      "POST createDatabase 200",
      "GET getDatabase 200",
      "DELETE deleteDatabase 200",
      "GET getDatabase 404",
    ],
  });
}, 120_000);
