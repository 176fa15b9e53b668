// Confirmation tokens with controlled time: valid for exactly 5 minutes, once, for their arguments.
import { describe, expect, it } from "vitest";
import { CONFIRMATION_TTL_MS, ConfirmationStore } from "../../src/internal/confirm.js";

function store() {
  const clock = { now: 1_000_000 };
  return { clock, tokens: new ConfirmationStore(() => clock.now) };
}

describe("ConfirmationStore", () => {
  it("a token is valid until 5 minutes after it was issued, not at 5 minutes", () => {
    expect(CONFIRMATION_TTL_MS).toBe(300_000);
    const a = store();
    const early = a.tokens.issue("delete_team", { id: "t1" });
    expect(early.expiresAt).toBe(1_300_000);
    a.clock.now = 1_299_999;
    expect(a.tokens.redeem(early.token, "delete_team", { id: "t1" })).toBe(true);
    const b = store();
    const late = b.tokens.issue("delete_team", { id: "t1" });
    b.clock.now = 1_300_000;
    expect(b.tokens.redeem(late.token, "delete_team", { id: "t1" })).toBe("expired");
  });

  it.each([
    ["another tool", "delete_database", { id: "t1" }],
    ["another id", "delete_team", { id: "t2" }],
    ["an extra argument", "delete_team", { id: "t1", fields: ["x"] }],
  ])("refuses a token for %s, and spends it", (_, tool, args) => {
    const { tokens } = store();
    const { token } = tokens.issue("delete_team", { id: "t1" });
    expect(tokens.redeem(token, tool, args)).toBe("other-arguments");
    expect(tokens.redeem(token, "delete_team", { id: "t1" })).toBe("unknown");
  });

  it("binds to the arguments, not to the order of their keys", () => {
    const { tokens } = store();
    const { token } = tokens.issue("t", { a: 1, b: { c: 2, d: 3 } });
    expect(tokens.redeem(token, "t", { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
  });

  it("is used once", () => {
    const { tokens } = store();
    const { token } = tokens.issue("t", {});
    expect(tokens.redeem(token, "t", {})).toBe(true);
    expect(tokens.redeem(token, "t", {})).toBe("unknown");
  });
});
