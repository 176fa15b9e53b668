// The handler's own SHA-256 (no `node:crypto` on the core path) gives node:crypto's digests, across
// the padding boundaries (55, 56, 63, 64 bytes) and multi-byte UTF-8.
import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { sameDigest, sha256, sha256Hex } from "../../src/internal/sha256.js";

const inputs = [
  "",
  "abc",
  "test-logs-token",
  "a".repeat(55),
  "a".repeat(56),
  "a".repeat(63),
  "a".repeat(64),
  "b".repeat(1000),
  "clé-𝄞-鍵",
];

it.each(inputs.map((s) => [s.length, s]))(
  "digests a %i-character string like node:crypto",
  (_n, s) => {
    expect(sha256Hex(s)).toBe(createHash("sha256").update(s, "utf8").digest("hex"));
  },
);

it("compares digests: equal only when every byte is", () => {
  expect(sameDigest(sha256("a"), sha256("a"))).toBe(true);
  expect(sameDigest(sha256("a"), sha256("b"))).toBe(false);
  expect(sameDigest(sha256("a"), sha256("a").subarray(0, 31))).toBe(false);
});
