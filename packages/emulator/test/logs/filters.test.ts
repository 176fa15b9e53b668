// The current reference's filters over HTTP: repeated keys are ORed, different filters ANDed, and the
// result equals a brute-force filter of every entry, paged with cursors in both orders.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Emulator } from "../../src/index.js";
import { errorOf, LOGS_TOKEN, start, type LogPage } from "../helpers.js";

type Entry = LogPage["events"][number];
type Query = [string, string][];

let emu: Emulator;
let all: Entry[];
const END = 1_750_000_000_000;

/** Pages to the end of `GET /v2/logs` with a query that may repeat keys. */
async function list(query: Query, count = 97): Promise<Entry[]> {
  const out: Entry[] = [];
  let cursor: string | undefined;
  do {
    const qs = new URLSearchParams([...query, ["count", String(count)]]);
    if (cursor) qs.append("cursor", cursor);
    const res = await fetch(`${emu.url}/v2/logs?${qs}`, {
      headers: { authorization: `Bearer ${LOGS_TOKEN}` },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${res.status} ${text}`);
    const page = JSON.parse(text) as LogPage;
    out.push(...page.events);
    cursor = page.cursor;
  } while (cursor);
  return out;
}

beforeAll(async () => {
  emu = await start({ seedLogs: 4000, seed: 7, logsEndTime: END });
  all = await list([], 1000);
});
afterAll(() => emu.close());

const labelsOf = (e: Entry): string[] => [
  ...(typeof e["label"] === "string" ? [e["label"]] : []),
  ...((e["labels"] as string[] | undefined) ?? []),
];
const url = (e: Entry): URL | undefined =>
  typeof e["url"] === "string" ? new URL(e["url"]) : undefined;
/** Distinct values of a field among all entries, most frequent first. */
const common = (f: (e: Entry) => unknown[]): string[] => {
  const n = new Map<string, number>();
  for (const e of all)
    for (const v of f(e)) if (typeof v === "string") n.set(v, (n.get(v) ?? 0) + 1);
  return [...n.entries()].sort((a, b) => b[1] - a[1]).map(([v]) => v);
};
const field = (k: string) => (e: Entry) => [e[k]];

/** The brute-force answer: every filter holds; within one filter, any of its values. */
function expected(query: Query): Entry[] {
  const by = new Map<string, string[]>();
  for (const [k, v] of query) by.set(k, [...(by.get(k) ?? []), v]);
  const test: Record<string, (e: Entry, v: string) => boolean> = {
    label: (e, v) => labelsOf(e).includes(v),
    messageIds: (e, v) => e.messageId === v,
    host: (e, v) => url(e)?.hostname === v,
    path: (e, v) => url(e)?.pathname === v,
    state: (e, v) =>
      v === "IN_PROGRESS" ? ["ACTIVE", "RETRY", "ERROR"].includes(e.state) : e.state === v,
  };
  const matches = (e: Entry): boolean =>
    [...by].every(([k, vs]) => vs.some((v) => (test[k] ? test[k](e, v) : e[k] === v)));
  return all.filter(matches);
}

describe("the generated log exercises the new filters", () => {
  it("has labels (some two per message), flow-control settings and caller IPs", () => {
    expect(all.some((e) => labelsOf(e).length === 3)).toBe(true); // label + two labels
    expect(
      all.some(
        (e) => typeof e["flowControlKey"] === "string" && typeof e["parallelism"] === "number",
      ),
    ).toBe(true);
    expect(all.some((e) => typeof e["rate"] === "number" && typeof e["period"] === "number")).toBe(
      true,
    );
    expect(new Set(all.map((e) => e["callerIp"])).size).toBeGreaterThan(2);
  });
});

describe("GET /v2/logs filters", () => {
  const cases: [string, () => Query][] = [
    ["one label", () => [["label", common(labelsOf)[0]!]]],
    [
      "two labels (ORed, found through labels too)",
      () =>
        common(labelsOf)
          .slice(0, 2)
          .map((l) => ["label", l]),
    ],
    [
      "two urls",
      () =>
        common(field("url"))
          .slice(0, 2)
          .map((u) => ["url", u]),
    ],
    [
      "two topics",
      () =>
        common(field("topicName"))
          .slice(0, 2)
          .map((t) => ["topicName", t]),
    ],
    [
      "two queues",
      () =>
        common(field("queueName"))
          .slice(0, 2)
          .map((q) => ["queueName", q]),
    ],
    [
      "two schedules",
      () =>
        common(field("scheduleId"))
          .slice(0, 2)
          .map((s) => ["scheduleId", s]),
    ],
    [
      "two message ids",
      () =>
        common(field("messageId"))
          .slice(0, 2)
          .map((m) => ["messageIds", m]),
    ],
    ["a flow-control key", () => [["flowControlKey", common(field("flowControlKey"))[0]!]]],
    ["a caller IP", () => [["callerIp", common(field("callerIp"))[1]!]]],
    ["a host", () => [["host", common((e) => [url(e)?.hostname])[0]!]]],
    ["a path", () => [["path", common((e) => [url(e)?.pathname])[0]!]]],
    [
      "labels ANDed with a state, a host and a caller IP",
      () => [
        ...common(labelsOf)
          .slice(0, 3)
          .map((l): [string, string] => ["label", l]),
        ["state", "DELIVERED"],
        ["host", common((e) => [url(e)?.hostname])[0]!],
        ["callerIp", common(field("callerIp"))[0]!],
      ],
    ],
    [
      "in-progress messages of two urls and a message id",
      () => {
        const target = all.find((e) => e.state === "RETRY" && typeof e["url"] === "string")!;
        return [
          ["state", "IN_PROGRESS"],
          ["url", String(target["url"])],
          ["url", common(field("url"))[0]!],
          ["messageIds", target.messageId],
        ];
      },
    ],
    ["a label nobody has", () => [["label", "no-such-label"]]],
  ];

  it.each(cases)("%s: every matching entry once, newest first, across pages", async (_, make) => {
    const query = make();
    const want = expected(query);
    if (!query.some(([, v]) => v === "no-such-label")) expect(want.length).toBeGreaterThan(0);
    expect(await list(query)).toEqual(want);
  });

  it.each(cases)("%s: the same entries oldest first", async (_, make) => {
    const query = make();
    expect(await list([...query, ["order", "earliestFirst"]], 113)).toEqual(
      expected(query).reverse(),
    );
  });

  it("label matches a message's second label, which only its labels array holds", async () => {
    const e = all.find((x) => labelsOf(x).length === 3)!;
    const second = (e["labels"] as string[])[1]!;
    expect(e["label"]).not.toBe(second);
    const got = await list([
      ["label", second],
      ["messageIds", e.messageId],
    ]);
    expect(got.map((x) => x.time)).toContain(e.time);
  });

  it("a filter that may not repeat is refused when repeated", async () => {
    const res = await fetch(`${emu.url}/v2/logs?flowControlKey=a&flowControlKey=b`, {
      headers: { authorization: `Bearer ${LOGS_TOKEN}` },
    });
    expect(res.status).toBe(400);
    expect(
      errorOf({ status: 400, headers: res.headers, body: await res.json(), text: "" }),
    ).toMatch(/^flowControlKey: must appear at most once/);
  });
});
