// The URL that logger events and tracing contexts show: no credentials, the query's names without
// their values (issue #22, item 3), whether or not it takes the fast path for fetch-serialized URLs.
import { describe, expect, it } from "vitest";
import { shownUrl } from "../../src/internal/tracing.js";

describe("shownUrl", () => {
  it.each([
    ["no query", "https://api.example.com/v2/logs", "https://api.example.com/v2/logs"],
    ["an empty query", "https://api.example.com/v2/logs?", "https://api.example.com/v2/logs"],
    [
      "values dropped, repeated names once, in order",
      "https://api.example.com/v2/logs?state=FAILED&count=10&state=ERROR",
      "https://api.example.com/v2/logs?state&count",
    ],
    [
      "names decoded as URLSearchParams reads them",
      "http://127.0.0.1:8080/v2/logs?topic%20name=a+b&x+y=1",
      "http://127.0.0.1:8080/v2/logs?topic name&x y",
    ],
    [
      "an @ in a query value is not taken for credentials",
      "https://api.example.com/v2/redis/databases?email=a@b.example",
      "https://api.example.com/v2/redis/databases?email",
    ],
    [
      "credentials removed",
      "https://user:secret-password@api.example.com/v2/logs?cursor=secret-cursor",
      "https://api.example.com/v2/logs?cursor",
    ],
    [
      "a fragment removed",
      "https://api.example.com/v2/logs?cursor=abc#frag",
      "https://api.example.com/v2/logs?cursor",
    ],
  ])("%s", (_name, url, shown) => {
    expect(shownUrl(url)).toBe(shown);
  });
});
