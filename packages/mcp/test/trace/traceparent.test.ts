// A `traceparent` in a tool call's `_meta` becomes the parent of the call's spans.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instrument } from "@api-clients/otel";
import { context, propagation } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Backend } from "../../src/internal/backend.js";
import { createServer, createShared } from "../../src/internal/server.js";
import { credentialsEnv, useEmulator } from "../support/server.js";

const h = useEmulator();
const exporter = new InMemorySpanExporter();
let stop: () => void;
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  stop = instrument({ tracerProvider });
});
afterAll(() => stop());

async function connectInProcess() {
  const backend = new Backend({
    env: credentialsEnv(h.emu),
    logs: { baseUrl: h.emu.url },
    management: { baseUrl: h.emu.url },
  });
  const server = createServer(createShared(backend));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("traceparent from _meta", () => {
  const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  const PARENT = "00f067aa0ba902b7";

  it("parents the call's span, and the service sees the same trace", async () => {
    exporter.reset();
    const client = await connectInProcess();
    try {
      await client.callTool({
        name: "list_teams",
        arguments: {},
        _meta: { traceparent: `00-${TRACE}-${PARENT}-01` },
      });
    } finally {
      await client.close();
    }
    const call = exporter.getFinishedSpans().find((s) => s.name === "listTeams")!;
    expect(call.spanContext().traceId).toBe(TRACE);
    expect(call.parentSpanContext?.spanId).toBe(PARENT);
    const seen = h.emu.requests().map((r) => r.traceparent?.split("-")[1]);
    expect(seen).toEqual([TRACE]);
  });

  it("without one, the call's span starts a trace of its own", async () => {
    exporter.reset();
    const client = await connectInProcess();
    try {
      await client.callTool({ name: "list_teams", arguments: {} });
    } finally {
      await client.close();
    }
    const call = exporter.getFinishedSpans().find((s) => s.name === "listTeams")!;
    expect(call.spanContext().traceId).not.toBe(TRACE);
    expect(call.parentSpanContext).toBeUndefined();
  });
});
