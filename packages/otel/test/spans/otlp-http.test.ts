// The spans through a real OTLP/HTTP exporter to a small collector on 127.0.0.1: they arrive with
// their parent ids, and the emulator saw the traceparent of each attempt span.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { createLogsClient } from "@api-clients/logs-client";
import { instrument } from "../../src/index.js";
import { providers, registerGlobals } from "../support/otel.js";

/** A span as OTLP/JSON carries it (ids in hex). */
interface OtlpSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

let emu: Emulator;
let collector: Server;
let collectorUrl: string;
const received: OtlpSpan[] = [];

beforeAll(async () => {
  registerGlobals();
  emu = await startEmulator({ seedLogs: 10, logsToken: "otlp-test-token" });
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/v1/traces" && req.headers["content-type"]?.includes("json")) {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const r of body.resourceSpans) for (const s of r.scopeSpans) received.push(...s.spans);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
});
afterAll(async () => {
  await emu.close();
  await new Promise((resolve) => collector.close(resolve));
});

it("spans arrive with their parent ids, and the emulator saw each attempt span's traceparent", async () => {
  const otel = providers(new OTLPTraceExporter({ url: collectorUrl }));
  const stop = instrument({ tracerProvider: otel.tracerProvider });
  try {
    emu.faults.add({ operationId: "listLogs", status: 503, retryAfter: 0.01, times: 1 });
    const logs = createLogsClient({ token: "otlp-test-token", baseUrl: emu.url });
    await otel.tracerProvider.getTracer("app").startActiveSpan("export job", async (span) => {
      await logs.list({ count: 3 });
      span.end();
    });
    await otel.tracerProvider.forceFlush();
  } finally {
    stop();
  }
  const named = (name: string) => received.filter((s) => s.name === name);
  const [app] = named("export job");
  const [call] = named("listLogs");
  const attempts = named("GET /v2/logs");
  expect(app).toBeDefined();
  expect(call?.parentSpanId).toBe(app?.spanId);
  expect(attempts).toHaveLength(2);
  for (const attempt of attempts) {
    expect(attempt.parentSpanId).toBe(call?.spanId);
    expect(attempt.traceId).toBe(app?.traceId);
  }
  expect(emu.requests().map((r) => r.traceparent)).toEqual(
    attempts.map((a) => `00-${a.traceId}-${a.spanId}-01`),
  );
});
