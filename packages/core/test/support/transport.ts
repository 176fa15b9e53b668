import { createTransport, type ClientOptions, type Transport } from "../../src/index.js";

/** A token that must never leak anywhere; tests search every output for it. */
export const SECRET = "sk_test_TOPSECRET_0123456789";

/** Creates a transport against `baseUrl` with fast defaults for tests (override any option). */
export function testTransport(baseUrl: string, options: ClientOptions = {}): Transport {
  return createTransport({
    options: { baseUrl, ...options },
    defaultBaseUrl: "https://example.invalid",
    authorization: `Bearer ${SECRET}`,
    userAgent: "@api-clients/core-test/0.0.0",
  });
}

/** Runs `promise` and returns what it rejected with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject, but it resolved");
}
