// Issue #12, item 7: a server (or proxy) that echoes the credentials back, in its body and in its
// headers, never gets them into an error's message, stack, `util.inspect` or JSON, nor into a logger
// event, nor into what `raw` returns. Both clients.
import { inspect } from "node:util";
import { ApiError, type LogEvent } from "@api-clients/core";
import { describe, expect, it } from "vitest";
import {
  useTestServer,
  SECRETS,
  logsAt,
  managementAt,
  rejection,
  type RecordedRequest,
  type ScriptedResponse,
} from "../support/both-clients.js";

const server = useTestServer();

function expectNoSecret(value: unknown, where: string): void {
  const texts = [
    inspect(value, { depth: Infinity, showHidden: true }),
    JSON.stringify(value) ?? "",
    String(value),
  ];
  if (value instanceof Error) texts.push(value.stack ?? "", value.message);
  for (const text of texts) {
    for (const secret of SECRETS) expect(text, `${where} holds ${secret}`).not.toContain(secret);
  }
}

/** Answers `status` with the request's Authorization echoed (whole and in parts) in body and headers. */
function echoing(status: number) {
  return (request: RecordedRequest): ScriptedResponse => {
    const authorization = String(request.headers.authorization);
    const [scheme, credentials = ""] = authorization.split(" ");
    const decoded = scheme === "Basic" ? Buffer.from(credentials, "base64").toString("utf8") : "";
    const echo = `you sent ${authorization} (${credentials}; ${decoded})`;
    return {
      status,
      headers: {
        "www-authenticate": `${scheme} realm="${credentials}"`,
        "x-echo": authorization,
        "retry-after-ms": "0",
      },
      body: { error: echo, message: echo, received: { authorization, decoded } },
    };
  };
}

const surfaces: Array<
  [string, (url: string, logger: (event: LogEvent) => void) => Promise<unknown>]
> = [
  ["logs.list()", (url, logger) => logsAt(url, { logger }).list()],
  ["m.databases.get()", (url, logger) => managementAt(url, { logger }).databases.get("db1")],
  [
    "m.databases.rename()",
    (url, logger) => managementAt(url, { logger }).databases.rename("db1", { name: "n" }),
  ],
];

describe("a server echoing the credentials", () => {
  it.each(surfaces)("%s: 401 with the echo has no secret anywhere", async (_name, send) => {
    server.setHandler(echoing(401));
    const events: LogEvent[] = [];
    const error = await rejection(send(server.url, (event) => events.push(event)));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as Error).message).toContain("you sent [REDACTED]");
    expectNoSecret(error, "the error");
    expectNoSecret((error as ApiError).body, "error.body");
    expectNoSecret(Object.fromEntries((error as ApiError).headers), "error.headers");
    expectNoSecret(events, "the log events");
    expect(events.some((event) => event.type === "error")).toBe(true);
    // It was sent, though: redaction is of what comes back.
    expect(server.requests[0]?.headers.authorization).toMatch(/^(Bearer|Basic) /);
  });

  it.each(surfaces)(
    "%s: a 503 echo retried to the end has no secret anywhere",
    async (_name, send) => {
      server.setHandler(echoing(503));
      const events: LogEvent[] = [];
      const error = await rejection(send(server.url, (event) => events.push(event)));
      expect((error as ApiError).attempts).toBe(3);
      expectNoSecret(error, "the error");
      expectNoSecret(events, "the log events");
    },
  );

  it("raw returns the echoed error body and headers redacted (both clients)", async () => {
    server.setHandler(echoing(403));
    const logs = await logsAt(server.url).raw.GET("/v2/logs");
    const m = await managementAt(server.url).raw.GET("/v2/redis/database/{id}", {
      params: { path: { id: "db1" } },
    });
    for (const { error, response } of [logs, m]) {
      expect(response.status).toBe(403);
      expectNoSecret(error, "raw error");
      expectNoSecret(Object.fromEntries(response.headers), "raw response headers");
      expectNoSecret(await response.text(), "raw response text");
    }
  });

  it("a 200 echoing them in a body that breaks the contract gives an InvalidResponseError without them", async () => {
    server.setHandler((request) => ({
      status: 200,
      body: `<html>proxy saw ${String(request.headers.authorization)}</html>`,
      headers: { "content-type": "text/html" },
    }));
    for (const send of [
      () => logsAt(server.url).list(),
      () => managementAt(server.url).databases.get("db1"),
    ]) {
      const error = await rejection(send());
      expect((error as Error).name).toBe("InvalidResponseError");
      expectNoSecret(error, "InvalidResponseError");
    }
  });
});
