// `instrument()` against the emulator, spans read from the SDK's in-memory exporter.
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nextBurstWindow, startEmulator, type Emulator } from "@api-clients/emulator";
import { AbortError, createLogsClient, type LogsClient } from "@api-clients/logs-client";
import { createManagementClient } from "@api-clients/management-client";
import { instrument } from "../../src/index.js";
import { providers, registerGlobals } from "../support/otel.js";

const TOKEN = "otel-test-logs-token-0123";
const API_KEY = "otel-test-api-key-4567";
const QUERY_VALUE = "ORDERS-TOPIC-QUERY-VALUE";

let emu: Emulator;
let logs: LogsClient;
const exporter = new InMemorySpanExporter();
const otel = providers(exporter);
let stop: () => void;

beforeAll(async () => {
  registerGlobals();
  emu = await startEmulator({
    seedLogs: 30,
    logsToken: TOKEN,
    accounts: [{ email: "ops@example.com", apiKey: API_KEY }],
  });
  logs = createLogsClient({ token: TOKEN, baseUrl: emu.url });
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.reset();
  exporter.reset();
  stop = instrument({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
});
afterEach(() => stop());

const spans = () => exporter.getFinishedSpans();
const byName = (name: string) => spans().filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("one call", () => {
  it("logs.list() gives one call span and one attempt span with the HTTP client attributes", async () => {
    await logs.list({ count: 5, topicName: QUERY_VALUE });
    const [call] = byName("listLogs");
    const [attempt] = byName("GET /v2/logs");
    expect(spans()).toHaveLength(2);
    const { port } = new URL(emu.url);
    expect(call?.kind).toBe(SpanKind.INTERNAL);
    expect(call?.attributes).toMatchObject({
      "api_clients.operation_id": "listLogs",
      "api_clients.api": "logs",
      "http.request.method": "GET",
      "url.template": "/v2/logs",
      "http.response.status_code": 200,
      "api_clients.attempts": 1,
    });
    expect(attempt?.kind).toBe(SpanKind.CLIENT);
    expect(attempt?.attributes).toEqual({
      "http.request.method": "GET",
      "url.full": `${emu.url}/v2/logs?count&topicName`,
      "url.template": "/v2/logs",
      "server.address": "127.0.0.1",
      "server.port": Number(port),
      "http.response.status_code": 200,
      "api_clients.operation_id": "listLogs",
    });
    expect(parentOf(attempt!)).toBe(call?.spanContext().spanId);
    expect(attempt?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("each attempt sends its own span's traceparent to the server", async () => {
    await logs.list({ count: 1 });
    const [attempt] = byName("GET /v2/logs");
    const { traceId, spanId } = attempt!.spanContext();
    expect(emu.requests().map((r) => r.traceparent)).toEqual([`00-${traceId}-${spanId}-01`]);
  });

  it("spans nest under the caller's active span", async () => {
    const tracer = otel.tracerProvider.getTracer("app");
    await tracer.startActiveSpan("handle request", async (parent) => {
      await logs.list({ count: 1 });
      parent.end();
    });
    const [app] = byName("handle request");
    const [call] = byName("listLogs");
    expect(parentOf(call!)).toBe(app?.spanContext().spanId);
    expect(call?.spanContext().traceId).toBe(app?.spanContext().traceId);
  });
});

describe("retries and failures", () => {
  it("503, 503, 200: three attempt spans, resend counts 1 and 2, two wait events", async () => {
    emu.faults.add({ operationId: "listLogs", status: 503, retryAfter: 0.02, times: 2 });
    await logs.list({ count: 1 });
    const attempts = byName("GET /v2/logs");
    const [call] = byName("listLogs");
    expect(attempts.map((s) => s.attributes["http.response.status_code"])).toEqual([503, 503, 200]);
    expect(attempts.map((s) => s.attributes["http.request.resend_count"])).toEqual([
      undefined,
      1,
      2,
    ]);
    expect(attempts.map((s) => s.attributes["error.type"])).toEqual(["503", "503", undefined]);
    expect(attempts.every((s) => parentOf(s) === call?.spanContext().spanId)).toBe(true);
    expect(call?.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        "api_clients.retry_wait",
        { "api_clients.attempt": 1, "api_clients.wait_ms": 20, "error.type": "503" },
      ],
      [
        "api_clients.retry_wait",
        { "api_clients.attempt": 2, "api_clients.wait_ms": 20, "error.type": "503" },
      ],
    ]);
    expect(call?.attributes["api_clients.attempts"]).toBe(3);
    expect(call?.status.code).toBe(SpanStatusCode.UNSET);
    // The server saw one traceparent per attempt span, each its own.
    const sent = attempts.map((s) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`);
    expect(emu.requests().map((r) => r.traceparent)).toEqual(sent);
  });

  it("an aborted call ends its span, and its attempt's, with error.type", async () => {
    emu.faults.add({ operationId: "listLogs", status: 200, delayMs: 5_000, times: 1 });
    const controller = new AbortController();
    const pending = logs.list({ count: 1 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    const [call] = byName("listLogs");
    const [attempt] = byName("GET /v2/logs");
    for (const span of [call, attempt]) {
      expect(span?.attributes["error.type"]).toBe("AbortError");
      expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    }
  });

  it("an HTTP error ends the call span with the status as error.type", async () => {
    const m = createManagementClient({
      email: "ops@example.com",
      apiKey: API_KEY,
      baseUrl: emu.url,
    });
    await expect(m.databases.get("no-such-id")).rejects.toThrow();
    const [call] = byName("getDatabase");
    expect(call?.attributes).toMatchObject({
      "api_clients.api": "management",
      "url.template": "/v2/redis/database/{id}",
      "http.response.status_code": 404,
      "error.type": "404",
    });
  });
});

describe("secrets", () => {
  it("no attribute, event or name holds the token, the API key or a query value", async () => {
    emu.faults.add({ operationId: "listLogs", status: 503, retryAfter: 0.01, times: 1 });
    await logs.list({ topicName: QUERY_VALUE, count: 2 });
    const m = createManagementClient({
      email: "ops@example.com",
      apiKey: API_KEY,
      baseUrl: emu.url,
    });
    await m.databases.list();
    await expect(
      createLogsClient({ token: TOKEN, baseUrl: emu.url, maxRetries: 0 }).list({
        cursor: QUERY_VALUE,
      }),
    ).rejects.toThrow();
    expect(spans().length).toBeGreaterThanOrEqual(7);
    const seen = JSON.stringify(
      spans().map((s) => [s.name, s.attributes, s.events, s.status, s.links]),
    );
    for (const secret of [
      TOKEN,
      API_KEY,
      QUERY_VALUE,
      Buffer.from(`ops@example.com:${API_KEY}`).toString("base64"),
    ]) {
      expect(seen).not.toContain(secret);
    }
  });
});

describe("metrics and unsubscribing", () => {
  it("records http.client.request.duration per attempt and a call duration per call", async () => {
    emu.faults.add({ operationId: "listLogs", status: 503, retryAfter: 0.01, times: 1 });
    await logs.list({ count: 1 });
    const histograms = await otel.histograms();
    const perAttempt = histograms.get("http.client.request.duration") ?? [];
    expect(perAttempt.reduce((n, p) => n + p.count, 0)).toBeGreaterThanOrEqual(2);
    expect(perAttempt.map((p) => p.attributes)).toContainEqual(
      expect.objectContaining({ "http.response.status_code": 503, "error.type": "503" }),
    );
    const perCall = histograms.get("api_clients.call.duration") ?? [];
    expect(perCall.map((p) => p.attributes)).toContainEqual(
      expect.objectContaining({
        "api_clients.operation_id": "listLogs",
        "http.response.status_code": 200,
      }),
    );
  });

  it("after the returned function runs, calls make no spans and send no traceparent", async () => {
    stop();
    await logs.list({ count: 1 });
    expect(spans()).toEqual([]);
    expect(emu.requests()[0]?.traceparent).toBeUndefined();
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});

describe("rate-limit waits", () => {
  it("an attempt that waited for the client's rate limit gives the call span a rate-limit wait event", async () => {
    const limited = await startEmulator({ seedLogs: 5, logsToken: TOKEN, burstLimit: 1 });
    try {
      // The first call must be answered within the second it was sent in: only then has the second
      // call something to wait for. A second's start leaves it ~1 s; on a machine so busy that it
      // takes longer, the pair runs again in a fresh second (at most 5 times).
      for (let tries = 1; ; tries++) {
        exporter.reset();
        limited.reset();
        await nextBurstWindow();
        const second = Math.floor(Date.now() / 1000);
        const client = createLogsClient({ token: TOKEN, baseUrl: limited.url });
        await client.list({ count: 1 }); // uses the second's only request; the answer says so
        const answeredInTime = Math.floor(Date.now() / 1000) === second;
        await client.list({ count: 1 }); // paced: waits for the next second
        if (answeredInTime || tries === 5) break;
      }
      const calls = byName("listLogs");
      expect(calls).toHaveLength(2);
      expect(calls[0]?.events).toEqual([]);
      const [event] = calls[1]!.events;
      expect(event?.name).toBe("api_clients.rate_limit_wait");
      expect(event?.attributes?.["api_clients.attempt"]).toBe(1);
      expect(event?.attributes?.["api_clients.wait_ms"]).toBeGreaterThan(0);
      expect(limited.rateLimits.refused).toBe(0);
    } finally {
      await limited.close();
    }
  });
});
