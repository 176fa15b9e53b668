// The circuit breaker on controlled time: when it opens, how long it stays open, the one probe.
import { describe, expect, it } from "vitest";
import { BACK_OFF_MS, Breaker, FAILURES_TO_OPEN } from "../src/breaker.js";

function breaker() {
  const clock = { at: 0 };
  return { clock, breaker: new Breaker(() => clock.at) };
}

describe("the breaker", () => {
  it("opens after 3 failures in a row, for 1 s; then lets exactly one probe through", () => {
    const { clock, breaker: b } = breaker();
    expect(FAILURES_TO_OPEN).toBe(3);
    expect([b.failed(), b.failed()]).toEqual([undefined, undefined]);
    expect(b.allows()).toBe(true);
    expect(b.failed()).toBe(1_000);
    clock.at = 999;
    expect(b.allows()).toBe(false);
    clock.at = 1_000;
    expect([b.allows(), b.allows(), b.allows()]).toEqual([true, false, false]);
  });

  it("a failed probe opens it again for 2 s (the longest), a good one closes it", () => {
    const { clock, breaker: b } = breaker();
    for (let i = 0; i < 3; i++) b.failed();
    clock.at = 1_000;
    expect(b.allows()).toBe(true);
    expect(b.failed()).toBe(2_000);
    clock.at = 2_999;
    expect(b.allows()).toBe(false);
    clock.at = 3_000;
    expect(b.allows()).toBe(true);
    expect(b.failed()).toBe(BACK_OFF_MS.at(-1));
    clock.at = 5_000;
    expect(b.allows()).toBe(true);
    expect(b.succeeded()).toBe(true);
    expect(b.open).toBe(false);
    expect(b.allows()).toBe(true);
    expect(b.succeeded()).toBe(false);
  });

  it("a failure of a command sent before it opened does not extend the back-off", () => {
    const { clock, breaker: b } = breaker();
    for (let i = 0; i < 3; i++) b.failed();
    clock.at = 500;
    expect(b.failed()).toBeUndefined();
    clock.at = 1_000;
    expect(b.allows()).toBe(true);
  });

  it("an answer between failures starts the count again", () => {
    const { breaker: b } = breaker();
    b.failed();
    b.failed();
    b.succeeded();
    expect([b.failed(), b.failed()]).toEqual([undefined, undefined]);
    expect(b.failed()).toBe(1_000);
  });
});
