// A `traceparent` (and `tracestate`) in a tool call's `_meta` becomes the parent of the call's spans:
// the call runs in the OpenTelemetry context extracted from it, so the spans `@api-clients/otel`
// makes for the clients' calls nest under the caller's. Without `@opentelemetry/api` installed, or
// without a registered propagator, the call runs as it is.

/** A well-formed W3C `traceparent`. */
const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;

type OtelApi = typeof import("@opentelemetry/api");
/** The optional peer, loaded once per process on the first call with a `traceparent` (`null`: absent). */
let loading: Promise<OtelApi | null> | undefined;
const otelApi = () =>
  (loading ??= import("@opentelemetry/api").then(
    (api) => api,
    () => null,
  ));

/** Runs `fn` as a child of the trace context in `meta`, when it has a well-formed `traceparent`. */
export async function withTraceContext<T>(
  meta: Record<string, unknown> | undefined,
  fn: () => Promise<T>,
): Promise<T> {
  const traceparent = meta?.["traceparent"];
  if (typeof traceparent !== "string" || !TRACEPARENT.test(traceparent)) return fn();
  const otel = await otelApi();
  if (otel === null) return fn();
  const tracestate = meta?.["tracestate"];
  const carrier: Record<string, string> = { traceparent };
  if (typeof tracestate === "string") carrier["tracestate"] = tracestate;
  const parent = otel.propagation.extract(otel.ROOT_CONTEXT, carrier);
  return otel.context.with(parent, fn);
}
