// `@api-clients/otel`: OpenTelemetry spans and metrics for every call of the @api-clients clients,
// from the `api-clients:call` and `api-clients:attempt` tracing channels the clients publish on.
import { tracingChannel } from "node:diagnostics_channel";
import {
  context,
  metrics,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  ValueType,
  type Attributes,
  type Context,
  type MeterProvider,
  type Span,
  type TracerProvider,
} from "@opentelemetry/api";
import type { AttemptTrace, CallTrace } from "@api-clients/core";

/** Options of {@link instrument}. */
export interface InstrumentOptions {
  /**
   * Where the spans go.
   * @default the global tracer provider (`trace.getTracerProvider()`)
   */
  tracerProvider?: TracerProvider;
  /**
   * Where the metrics go.
   * @default the global meter provider (`metrics.getMeterProvider()`)
   */
  meterProvider?: MeterProvider;
}

/** Name of the tracer and meter, and prefix of the attributes and events this package adds. */
const NAME = "@api-clients/otel";

/** Bucket boundaries (seconds) the HTTP semantic conventions advise for request durations. */
const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

/** Sets the trace context headers on an attempt, through its `setHeader`. */
const headerSetter = {
  set: (carrier: AttemptTrace, key: string, value: string) => carrier.setHeader(key, value),
};

/** The channels' handlers (the subset of `TracingChannelSubscribers` used here). */
interface Handlers<T> {
  start(context: T): void;
  asyncEnd(context: T): void;
}

/** What is known of a call in flight. */
interface OpenCall {
  readonly span: Span;
  /** The context the call's attempts are children of. */
  readonly context: Context;
  readonly started: number;
  /** Attributes its attempts share with it (method, template, server). */
  readonly common: Attributes;
}

/** `server.address` and `server.port` of a URL (the port is the scheme's when the URL has none). */
function server(url: string): Attributes {
  // A client sends every call to one origin: read once per origin (the part before the path).
  const origin = url.slice(0, url.indexOf("/", url.indexOf("//") + 2) >>> 0);
  let found = servers.get(origin);
  if (found === undefined) {
    found = readServer(url);
    if (servers.size >= 64) servers.clear();
    servers.set(origin, found);
  }
  return found;
}

/** The `server.*` attributes of each origin seen (at most 64, then started afresh). */
const servers = new Map<string, Attributes>();

function readServer(url: string): Attributes {
  try {
    const { hostname, port, protocol } = new URL(url);
    const address = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
    return {
      "server.address": address,
      "server.port": port === "" ? (protocol === "http:" ? 80 : 443) : Number(port),
    };
  } catch {
    return {};
  }
}

/**
 * What went wrong, as `error.type`: the status code of an HTTP error answer (as the semantic conventions
 * ask), else the error's class name (`TimeoutError`, `ConnectionError`, `AbortError`, …).
 */
function errorType(status: number | undefined, error: unknown): string | undefined {
  if (status !== undefined && status >= 400) return String(status);
  if (error === undefined) return undefined;
  return error instanceof Error ? error.name : "Error";
}

/** Ends a span, marking it failed when `type` is set (never with the error's message: it may hold a URL). */
function end(span: Span, status: number | undefined, type: string | undefined): void {
  if (status !== undefined) span.setAttribute("http.response.status_code", status);
  if (type !== undefined) {
    span.setAttribute("error.type", type);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Subscribes to the clients' tracing channels: a span per call named after its operation
 * (`listLogs`), with a child span per attempt that follows the OpenTelemetry HTTP client semantic
 * conventions; retry and rate-limit waits as events of the call span; the metrics
 * `http.client.request.duration` (per attempt) and `api_clients.call.duration` (per call). With a
 * propagator registered, each attempt sends its trace context (`traceparent`). Spans nest under the
 * span active where the call was made. Returns the function that unsubscribes.
 *
 * @example
 * import { instrument } from "@api-clients/otel";
 * const stop = instrument(); // the global tracer and meter providers
 * // … calls of either client are traced …
 * stop();
 */
export function instrument(options: InstrumentOptions = {}): () => void {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(NAME);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(NAME);
  const attemptDuration = meter.createHistogram("http.client.request.duration", {
    description: "Duration of HTTP client requests (one per attempt).",
    unit: "s",
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const callDuration = meter.createHistogram("api_clients.call.duration", {
    description: "Duration of client calls, every attempt and wait included.",
    unit: "s",
    valueType: ValueType.DOUBLE,
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const calls = new Map<string, OpenCall>();
  const attempts = new WeakMap<AttemptTrace, { span: Span; started: number; common: Attributes }>();

  const common = (ctx: CallTrace): Attributes => ({
    "http.request.method": ctx.method,
    "url.template": ctx.path,
    ...server(ctx.url),
  });

  const call: Handlers<CallTrace> = {
    start(ctx) {
      const parent = context.active();
      const shared = common(ctx);
      const span = tracer.startSpan(
        ctx.operationId || `${ctx.method} ${ctx.path}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            ...shared,
            "url.full": ctx.url,
            "api_clients.api": ctx.api,
            "api_clients.operation_id": ctx.operationId,
            "api_clients.call_id": ctx.callId,
          },
        },
        parent,
      );
      calls.set(ctx.callId, {
        span,
        context: trace.setSpan(parent, span),
        started: performance.now(),
        common: shared,
      });
    },
    asyncEnd(ctx) {
      const open = calls.get(ctx.callId);
      if (open === undefined) return;
      calls.delete(ctx.callId);
      const type = errorType(ctx.status, ctx.error);
      open.span.setAttribute("api_clients.attempts", ctx.attempt);
      end(open.span, ctx.status, type);
      callDuration.record((performance.now() - open.started) / 1000, {
        "api_clients.api": ctx.api,
        "api_clients.operation_id": ctx.operationId,
        ...(ctx.status === undefined ? {} : { "http.response.status_code": ctx.status }),
        ...(type === undefined ? {} : { "error.type": type }),
      });
    },
  };

  const attempt: Handlers<AttemptTrace> = {
    start(ctx) {
      const open = calls.get(ctx.callId);
      const parent = open?.context ?? context.active();
      const shared = open?.common ?? common(ctx);
      if (open !== undefined && ctx.rateLimitWaitMs > 0) {
        open.span.addEvent("api_clients.rate_limit_wait", {
          "api_clients.attempt": ctx.attempt,
          "api_clients.wait_ms": ctx.rateLimitWaitMs,
        });
      }
      const span = tracer.startSpan(
        `${ctx.method} ${ctx.path}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            ...shared,
            "url.full": ctx.url,
            "api_clients.operation_id": ctx.operationId,
            ...(ctx.attempt > 1 ? { "http.request.resend_count": ctx.attempt - 1 } : {}),
          },
        },
        parent,
      );
      attempts.set(ctx, { span, started: performance.now(), common: shared });
      propagation.inject(trace.setSpan(parent, span), ctx, headerSetter);
    },
    asyncEnd(ctx) {
      const open = attempts.get(ctx);
      if (open === undefined) return;
      attempts.delete(ctx);
      const type = errorType(ctx.status, ctx.error);
      end(open.span, ctx.status, type);
      attemptDuration.record((performance.now() - open.started) / 1000, {
        ...open.common,
        ...(ctx.status === undefined ? {} : { "http.response.status_code": ctx.status }),
        ...(type === undefined ? {} : { "error.type": type }),
      });
      if (ctx.retryDelayMs !== undefined) {
        calls.get(ctx.callId)?.span.addEvent("api_clients.retry_wait", {
          "api_clients.attempt": ctx.attempt,
          "api_clients.wait_ms": ctx.retryDelayMs,
          ...(type === undefined ? {} : { "error.type": type }),
        });
      }
    },
  };

  const callChannel = tracingChannel<unknown, CallTrace>("api-clients:call");
  const attemptChannel = tracingChannel<unknown, AttemptTrace>("api-clients:attempt");
  callChannel.subscribe(call as never);
  attemptChannel.subscribe(attempt as never);
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    callChannel.unsubscribe(call as never);
    attemptChannel.unsubscribe(attempt as never);
  };
}
