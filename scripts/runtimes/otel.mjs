// The `@api-clients/otel` check of the server-side runtimes (Node, Bun, Deno, workerd with
// nodejs_compat): the OpenTelemetry SDK set up as an application would (a tracer provider exporting to
// memory, the W3C propagator), `instrument()`, one `logs.list()`, then the spans and what the emulator
// saw. Not in the browser: the package reads `node:diagnostics_channel`, which a browser lacks.
import { instrument } from "@api-clients/otel";
import { propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/**
 * One call traced through `@api-clients/otel`: a call span `listLogs` with one child attempt span
 * `GET /v2/logs` carrying the HTTP client attributes, and the attempt's traceparent at the emulator.
 * @returns {Promise<[boolean, string]>}
 */
export async function otelCheck(logs, baseUrl) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const stop = instrument({ tracerProvider });
  try {
    await logs.list({ count: 2, topicName: "secret-topic" });
  } finally {
    stop();
    propagation.disable();
  }
  const spans = exporter.getFinishedSpans();
  const call = spans.find((s) => s.name === "listLogs");
  const attempt = spans.find((s) => s.name === "GET /v2/logs");
  const requests = await (await fetch(`${baseUrl}/__emulator/requests`)).json();
  const sent = requests.filter((r) => r.operationId === "listLogs").at(-1)?.traceparent;
  const a = attempt?.attributes ?? {};
  const seen = [
    `${spans.length} spans`,
    `call ${call?.name}`,
    `attempt ${attempt?.name} under the call ${attempt?.parentSpanContext?.spanId === call?.spanContext().spanId}`,
    `method ${a["http.request.method"]}`,
    `template ${a["url.template"]}`,
    `status ${a["http.response.status_code"]}`,
    `url.full ${a["url.full"]}`,
    `traceparent at the emulator is the attempt's ${sent?.split("-")[2] === attempt?.spanContext().spanId}`,
  ];
  const want = [
    "2 spans",
    "call listLogs",
    "attempt GET /v2/logs under the call true",
    "method GET",
    "template /v2/logs",
    "status 200",
    `url.full ${baseUrl}/v2/logs?count&topicName`,
    "traceparent at the emulator is the attempt's true",
  ];
  return [seen.join("; ") === want.join("; "), seen.join("; ")];
}
