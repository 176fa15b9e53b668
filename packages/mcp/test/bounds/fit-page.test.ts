import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, fitPage, type Position } from "../../src/internal/bounds.js";

const wrap = (items: readonly unknown[], next: Position | undefined, summary?: object) => ({
  items,
  ...(next === undefined ? {} : { cursor: encodeCursor(next) }),
  ...(summary === undefined ? {} : { summary }),
});
const entry = (i: number, state: string, url: string, size = 10) => ({
  id: i,
  state,
  url,
  body: "x".repeat(size),
});

describe("fitPage", () => {
  it("takes the longest prefix that fits, and a cursor to the next item of the same page", () => {
    const items = Array.from({ length: 50 }, (_, i) => entry(i, "DELIVERED", "https://a"));
    const { value, text } = fitPage(items, { service: "s1", offset: 5 }, 1000, wrap, "s2");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
    const taken = value["items"] as { id: number }[];
    expect(taken[0]!.id).toBe(5);
    const next = decodeCursor(value["cursor"] as string)!;
    expect(next).toEqual({ service: "s1", offset: 5 + taken.length });
    // One more item would not have fitted.
    const more = JSON.stringify(wrap(items.slice(5, 6 + taken.length), next));
    expect(Buffer.byteLength(more)).toBeGreaterThan(1000);
  });

  it("the end of a page continues at the service's next page; the last page has no cursor", () => {
    const items = [entry(0, "FAILED", "https://a")];
    const mid = fitPage(items, { offset: 0 }, 1000, wrap, "s2");
    expect(decodeCursor(mid.value["cursor"] as string)).toEqual({ service: "s2", offset: 0 });
    const last = fitPage(items, { offset: 0 }, 1000, wrap, undefined);
    expect(last.value["cursor"]).toBeUndefined();
  });

  it("when not even one item fits: counts by state and URL, and the cursor past the page", () => {
    const items = [
      entry(0, "FAILED", "https://a", 2000),
      entry(1, "FAILED", "https://b", 2000),
      entry(2, "DELIVERED", "https://a", 2000),
    ];
    const { value, text } = fitPage(items, { service: "s1", offset: 0 }, 1000, wrap, "s2");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
    expect(value["items"]).toEqual([]);
    expect(value["summary"]).toEqual({
      count: 3,
      byState: { FAILED: 2, DELIVERED: 1 },
      byUrl: { "https://a": 2, "https://b": 1 },
    });
    expect(decodeCursor(value["cursor"] as string)).toEqual({ service: "s2", offset: 0 });
  });

  it("a cursor that is not ours is not read as one", () => {
    expect(decodeCursor("1686652644442-12")).toBeUndefined();
    expect(decodeCursor("mcp1.!!")).toBeUndefined();
    expect(decodeCursor(encodeCursor({ offset: 3 }))).toEqual({ offset: 3 });
  });
});
