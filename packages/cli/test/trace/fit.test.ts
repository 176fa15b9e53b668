// The --trace drawing on a narrow terminal: the bar narrows, then the labels; no line is wider.
import { describe, expect, it } from "vitest";
import { renderWaterfall, type TracedCall } from "../../src/output/trace.js";

const calls: TracedCall[] = [
  {
    operationId: "listLogs",
    method: "GET",
    path: "/v2/logs",
    start: 0,
    end: 900,
    status: 200,
    attempts: [
      { attempt: 1, start: 0, end: 50, status: 503, retryDelayMs: 300, rateLimitWaitMs: 0 },
      { attempt: 2, start: 350, end: 900, status: 200, rateLimitWaitMs: 0 },
    ],
  },
  {
    operationId: "getDatabaseStatsWithAVeryLongOperationIdentifierIndeed",
    method: "GET",
    path: "/v2/redis/stats/{id}",
    start: 900,
    end: 1000,
    status: 200,
    attempts: [{ attempt: 1, start: 900, end: 1000, status: 200, rateLimitWaitMs: 0 }],
  },
];

describe("renderWaterfall fitted to a width", () => {
  it.each([
    [undefined, 40],
    [120, 40],
    // 48 label columns (the longest label is cut to 48) + 32 of figures + 40 is 120: at 80 the bar
    // narrows to its 10, then the labels to 38.
    [80, 10],
    [60, 10],
  ])("columns %s: bar %i wide, no line wider", (columns, bar) => {
    const lines = renderWaterfall({ calls, dropped: 0 }, 40, columns).trimEnd().split("\n");
    for (const line of lines.slice(1)) {
      if (columns !== undefined) expect(line.length).toBeLessThanOrEqual(columns);
      expect(/\|(.*)\|$/.exec(line)?.[1]).toHaveLength(bar);
    }
    // The first call's label is whole down to 80 columns, cut with "…" below.
    const whole = lines.some((l) => l.startsWith("listLogs (2 attempts) "));
    expect(whole).toBe(columns === undefined || columns >= 80);
    if (!whole) expect(lines.some((l) => /^listLogs \(2 att\S*… /.test(l))).toBe(true);
  });
});
