// Issue #24: every failure has the class its status or cause deserves, and is not retried as a
// connection failure when it is none: deeply nested bodies (item 17), a `fetch` option returning a
// non-standard response (18), redirect loops (21), https redirected to http, `__proto__` keys (23).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  BadRequestError,
  ConnectionError,
  InvalidResponseError,
  type ApiError,
} from "../../src/index.js";
import { useTestServer } from "../support/test-server.js";
import { rejection, testApi } from "../support/api.js";

const server = useTestServer();

/** 200,000 levels of arrays: 400 KB that JSON.parse accepts and JSON.stringify cannot print. */
const DEEP = "[".repeat(200_000) + "]".repeat(200_000);
const JSON_TYPE = { "content-type": "application/json" };

describe("a deeply nested body (item 17)", () => {
  it("on a 200 is an InvalidResponseError, sent once, without the body", async () => {
    server.enqueue({ status: 200, headers: JSON_TYPE, body: DEEP });
    const error = await rejection(testApi(server.url).request("getThing", {}));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as ApiError).body).toBeUndefined();
    expect((error as Error).message).toBe(
      `200 OK: expected a JSON object; body not kept: nested deeper than 256 levels (GET ${server.url}/thing)`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("on a 400 keeps its class, is sent once, and says why the body is missing", async () => {
    server.enqueue({ status: 400, headers: JSON_TYPE, body: DEEP });
    const error = await rejection(testApi(server.url).request("getThing", {}));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as ApiError).body).toBeUndefined();
    expect((error as Error).message).toBe(
      `400 Bad Request (GET ${server.url}/thing); body not kept: nested deeper than 256 levels`,
    );
    expect(server.requests).toHaveLength(1);
  });
});

describe("a `fetch` option that returns a non-standard response (item 18)", () => {
  /** What node-fetch resolves to: status and headers, but a Node stream for a body. */
  const nodeFetchLike = async (request: RequestInfo | URL) => {
    const response = await fetch(request);
    return {
      status: response.status,
      ok: response.ok,
      url: response.url,
      headers: response.headers,
      body: Readable.fromWeb(response.body as never),
    } as unknown as Response;
  };

  it.each([
    ["createThing", { body: { name: "a" } }],
    ["getThing", {}],
  ] as const)("%s fails once with an InvalidResponseError that says so", async (id, input) => {
    server.setHandler(() => ({ status: 200, body: { id: 1 } }));
    const error = await rejection(testApi(server.url, { fetch: nodeFetchLike }).request(id, input));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as ApiError).status).toBe(200);
    expect((error as Error).message).toContain(
      "the `fetch` option returned a non-standard Response",
    );
    // The create happened: it is not sent again as if the connection had failed.
    expect(server.requests).toHaveLength(1);
  });
});

describe("redirects", () => {
  it("a redirect loop is a ConnectionError that says so, not retried (item 21)", async () => {
    server.setHandler(() => ({ status: 302, headers: { location: "/thing" } }));
    const error = await rejection(testApi(server.url).request("getThing", {}));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe(
      `Too many redirects (GET ${server.url}/thing): a redirect loop, not retried`,
    );
    // fetch follows 20 redirects, once: 21 requests, not 63.
    expect(server.requests).toHaveLength(21);
  });

  const hasOpenssl = (() => {
    try {
      execFileSync("openssl", ["version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasOpenssl)("an https baseUrl redirected to http is refused", async () => {
    // A self-signed certificate made for this test; this test file's process trusts any certificate.
    const dir = mkdtempSync(join(tmpdir(), "downgrade-"));
    execFileSync(
      "openssl",
      [
        ...[
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=127.0.0.1",
        ],
        ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      ],
      { stdio: "ignore" },
    );
    const tls = createServer(
      { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
      (_req, res) => res.writeHead(307, { location: `${server.url}/thing` }).end(),
    );
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
    try {
      server.setHandler(() => ({ status: 200, body: { downgraded: true } }));
      const baseUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
      const error = await rejection(testApi(baseUrl).request("getThing", {}));
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toBe(
        `Refused a redirect from https to http (${server.url}/thing) (GET ${baseUrl}/thing)`,
      );
      // fetch followed it once, without the credentials; the answer is refused, not retried.
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.headers.authorization).toBeUndefined();
    } finally {
      delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      tls.closeAllConnections();
      tls.close();
    }
  });
});

describe("fields named __proto__ (item 23)", () => {
  const body = '{"__proto__":{"polluted":true},"name":"a"}';

  it("stay own data keys of a result", async () => {
    server.enqueue({ status: 200, headers: JSON_TYPE, body });
    const thing = (await testApi(server.url).request("getThing", {})) as Record<string, unknown>;
    expect(Object.keys(thing)).toEqual(["__proto__", "name"]);
    expect(Object.getOwnPropertyDescriptor(thing, "__proto__")?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(thing)).toBe(Object.prototype);
  });

  it("stay own data keys of an error body (after redaction)", async () => {
    server.enqueue({ status: 400, headers: JSON_TYPE, body });
    const error = (await rejection(testApi(server.url).request("getThing", {}))) as ApiError;
    const errorBody = error.body as Record<string, unknown>;
    expect(Object.keys(errorBody)).toEqual(["__proto__", "name"]);
    expect(Object.getOwnPropertyDescriptor(errorBody, "__proto__")?.value).toEqual({
      polluted: true,
    });
    expect(Object.getPrototypeOf(errorBody)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
