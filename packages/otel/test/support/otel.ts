// The OpenTelemetry SDK set up as an application would: an async-context manager (spans nest under the
// caller's), the W3C trace-context propagator, a tracer provider and a meter provider read on demand.
import { context, propagation } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { MetricReader, MeterProvider, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  SimpleSpanProcessor,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";

/** A metric reader that only reads when asked to. */
class OnDemandReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

/** Registers the global context manager and propagator (once per test file). */
export function registerGlobals(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

/** A tracer provider exporting every span at its end, and a meter provider with a reader. */
export function providers(exporter: SpanExporter) {
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    tracerProvider,
    meterProvider,
    /** The data points of each histogram, by name. */
    async histograms(): Promise<Map<string, { count: number; attributes: object }[]>> {
      const { resourceMetrics } = (await reader.collect()) as { resourceMetrics: ResourceMetrics };
      const out = new Map<string, { count: number; attributes: object }[]>();
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          out.set(
            metric.descriptor.name,
            metric.dataPoints.map((p) => ({
              count: (p.value as { count: number }).count,
              attributes: p.attributes,
            })),
          );
        }
      }
      return out;
    },
  };
}
