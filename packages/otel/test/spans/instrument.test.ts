// Issue #30, item 5: `instrument()` cannot double-count or lose data without a word, and the per-call
// span is not an HTTP client request (only its attempts are).
import { metrics } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { startEmulator, type Emulator } from "@api-clients/emulator";
import { createLogsClient, type LogsClient } from "@api-clients/logs-client";
import { instrument } from "../../src/index.js";
import { providers, registerGlobals } from "../support/otel.js";

const TOKEN = "otel-instrument-logs-token-0123";

let emu: Emulator;
let logs: LogsClient;
const exporter = new InMemorySpanExporter();
const otel = providers(exporter);

beforeAll(async () => {
  registerGlobals();
  emu = await startEmulator({ seedLogs: 3, logsToken: TOKEN });
  logs = createLogsClient({ token: TOKEN, baseUrl: emu.url });
});
afterAll(() => emu.close());
beforeEach(() => {
  emu.reset();
  exporter.reset();
});

/** The warnings `process.emitWarning` gives during the test. */
function warnings(): string[] {
  const seen: string[] = [];
  const listener = (warning: Error) => void seen.push(warning.message);
  process.on("warning", listener);
  onTestFinished(() => void process.off("warning", listener));
  return seen;
}

/** Lets `process.emitWarning`'s event (emitted on the next tick) arrive. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("instrument()", () => {
  it("a second call while instrumenting warns and returns the first stop: no duplicate spans", async () => {
    const seen = warnings();
    const options = { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider };
    const stop = instrument(options);
    onTestFinished(stop);
    const again = instrument(options);
    expect(again).toBe(stop);
    await logs.list({ count: 1 });
    expect(exporter.getFinishedSpans()).toHaveLength(2);
    await tick();
    expect(seen.some((m) => m.includes("already instrumenting"))).toBe(true);
  });

  it("without a meter provider it warns, and records once one is set", async () => {
    const seen = warnings();
    const stop = instrument({ tracerProvider: otel.tracerProvider });
    onTestFinished(stop);
    await tick();
    expect(seen.some((m) => m.includes("no meter provider"))).toBe(true);
    metrics.setGlobalMeterProvider(otel.meterProvider);
    onTestFinished(() => metrics.disable());
    await logs.list({ count: 1 });
    const points = (await otel.histograms()).get("http.client.request.duration") ?? [];
    expect(points.reduce((sum, p) => sum + p.count, 0)).toBeGreaterThanOrEqual(1);
  });

  it("the call span carries no attribute that makes it count as an HTTP client request", async () => {
    const stop = instrument({
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    onTestFinished(stop);
    await logs.list({ count: 1 });
    const [call] = exporter.getFinishedSpans().filter((s) => s.name === "listLogs");
    for (const name of [
      "http.request.method",
      "http.response.status_code",
      "url.full",
      "server.address",
      "server.port",
    ]) {
      expect(call?.attributes).not.toHaveProperty([name]);
    }
    expect(call?.attributes).toMatchObject({
      "api_clients.status_code": 200,
      "url.template": "/v2/logs",
    });
  });

  it("a retried attempt that failed on a reset connection ends its span with error.type", async () => {
    emu.faults.add({ operationId: "listLogs", resetConnection: true, times: 1 });
    const stop = instrument({
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
    });
    onTestFinished(stop);
    await logs.list({ count: 1 });
    const attempts = exporter.getFinishedSpans().filter((s) => s.name === "GET /v2/logs");
    expect(attempts.map((s) => s.attributes["error.type"])).toEqual(["ConnectionError", undefined]);
    expect(attempts[0]?.status.code).toBe(2);
  });
});
