// Confirmation tokens with controlled time: valid for exactly 5 minutes, once, for their arguments,
// checked by the HMAC of the confirmation secret.
import { describe, expect, it } from "vitest";
import {
  CONFIRMATION_TTL_MS,
  ConfirmationTokens,
  type UsedTokens,
} from "../../src/internal/confirm.js";

const SECRET = "a-confirmation-secret-of-32-chars!";

function tokens(secret = SECRET) {
  const clock = { now: 1_000_000 };
  return { clock, tokens: new ConfirmationTokens({ secret, now: () => clock.now }) };
}

describe("ConfirmationTokens", () => {
  it("a token is valid until 5 minutes after it was issued, not at 5 minutes", async () => {
    expect(CONFIRMATION_TTL_MS).toBe(300_000);
    const a = tokens();
    const early = a.tokens.issue("delete_team", { id: "t1" });
    expect(early.expiresAt).toBe(1_300_000);
    a.clock.now = 1_299_999;
    expect(await a.tokens.redeem(early.token, "delete_team", { id: "t1" })).toBe(true);
    const b = tokens();
    const late = b.tokens.issue("delete_team", { id: "t1" });
    b.clock.now = 1_300_000;
    expect(await b.tokens.redeem(late.token, "delete_team", { id: "t1" })).toBe("expired");
  });

  it.each([
    ["another tool", "delete_database", { id: "t1" }],
    ["another id", "delete_team", { id: "t2" }],
    ["an extra argument", "delete_team", { id: "t1", fields: ["x"] }],
  ])("refuses a token for %s (it stays valid for its own arguments)", async (_, tool, args) => {
    const { tokens: t } = tokens();
    const { token } = t.issue("delete_team", { id: "t1" });
    expect(await t.redeem(token, tool, args)).toBe("other-arguments");
    expect(await t.redeem(token, "delete_team", { id: "t1" })).toBe(true);
  });

  it("binds to the arguments, not to the order of their keys", async () => {
    const { tokens: t } = tokens();
    const { token } = t.issue("t", { a: 1, b: { c: 2, d: 3 } });
    expect(await t.redeem(token, "t", { b: { d: 3, c: 2 }, a: 1 })).toBe(true);
  });

  it("is used once", async () => {
    const { tokens: t } = tokens();
    const { token } = t.issue("t", {});
    expect(await t.redeem(token, "t", {})).toBe(true);
    expect(await t.redeem(token, "t", {})).toBe("used");
  });

  it("is accepted by another instance with the same secret, refused by one with another secret", async () => {
    const { token } = tokens().tokens.issue("t", { id: 1 });
    expect(await tokens().tokens.redeem(token, "t", { id: 1 })).toBe(true);
    const other = tokens("another-confirmation-secret-32-chars");
    expect(await other.tokens.redeem(token, "t", { id: 1 })).toBe("other-arguments");
    // Without a secret, each instance has a key of its own.
    const a = new ConfirmationTokens();
    expect(await new ConfirmationTokens().redeem(a.issue("t", {}).token, "t", {})).toBe(
      "other-arguments",
    );
  });

  it("refuses a token whose expiry was edited, and text that is not a token", async () => {
    const { tokens: t } = tokens();
    const { token } = t.issue("t", {});
    const [v, expiry, nonce, mac] = token.split(".");
    const later = (parseInt(expiry!, 36) + 3_600_000).toString(36);
    expect(await t.redeem(`${v}.${later}.${nonce}.${mac}`, "t", {})).toBe("other-arguments");
    expect(await t.redeem("not-a-token", "t", {})).toBe("malformed");
  });

  it("records the use for the token's remaining life, and refuses when the record cannot be checked", async () => {
    const claims: [string, number][] = [];
    const recording: UsedTokens = {
      claim: (id, ttl) => (claims.push([id, ttl]), Promise.resolve(true)),
    };
    const clock = { now: 1_000_000 };
    const t = new ConfirmationTokens({ secret: SECRET, used: recording, now: () => clock.now });
    const { token } = t.issue("t", {});
    clock.now += 60_000;
    expect(await t.redeem(token, "t", {})).toBe(true);
    expect(claims.map(([, ttl]) => ttl)).toEqual([240_000]);
    const failing = new ConfirmationTokens({
      secret: SECRET,
      used: { claim: () => Promise.reject(new Error("ECONNREFUSED")) },
    });
    expect(await failing.redeem(failing.issue("t", {}).token, "t", {})).toBe("unverifiable");
  });
});
