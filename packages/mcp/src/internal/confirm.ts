// Two-step confirmation of a destructive call for clients without elicitation: the first call returns
// a preview and a token bound to those exact arguments; only a second call with that token, within
// five minutes and once, sends the request.
//
// A token is self-contained (an HMAC over the tool, the canonical arguments, the expiry and a nonce,
// keyed by the confirmation secret), so any instance holding the same secret can check it: a token
// from one instance behind a load balancer is accepted by another. That it is used once is recorded
// where every instance sees it: in Redis with `--redis-url`, in the process's memory otherwise.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** How long a confirmation token is valid, milliseconds. */
export const CONFIRMATION_TTL_MS = 5 * 60_000;

/** Shortest `--confirm-secret` accepted, characters. */
export const MIN_CONFIRM_SECRET_LENGTH = 32;

/** The arguments as canonical text: keys sorted at every depth. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Why a token was not accepted. */
export type TokenRefusal =
  /** Not a token of this form. */
  | "malformed"
  /** Issued for another tool or other arguments, or under another confirmation secret. */
  | "other-arguments"
  | "expired"
  | "used"
  /** Whether it was used could not be checked (Redis unreachable): refused, nothing sent. */
  | "unverifiable";

/**
 * The record of used tokens, shared by every instance that shares the confirmation secret.
 * `claim` resolves `true` the first time it is given `id`, `false` afterwards (for `ttlMs`, the
 * token's remaining life), and rejects when it cannot tell.
 */
export interface UsedTokens {
  claim(id: string, ttlMs: number): Promise<boolean>;
  close?(): Promise<void>;
}

/** The used tokens of one process, kept until they expire. `now` is injectable for tests. */
export class MemoryUsedTokens implements UsedTokens {
  private readonly used = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  claim(id: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    for (const [key, until] of this.used) if (until <= now) this.used.delete(key);
    if (this.used.has(id)) return Promise.resolve(false);
    this.used.set(id, now + ttlMs);
    return Promise.resolve(true);
  }
}

/** The part of an ioredis client the Redis record uses. */
export interface RedisSetter {
  set(key: string, value: string, px: "PX", ttlMs: number, nx: "NX"): Promise<"OK" | null>;
  quit(): Promise<unknown>;
}

/** The used tokens in Redis: `SET key 1 PX <remaining life> NX`, one key per token. */
export class RedisUsedTokens implements UsedTokens {
  constructor(
    private readonly redis: RedisSetter,
    private readonly keyPrefix = "api-clients-mcp:used-confirmation:",
  ) {}

  async claim(id: string, ttlMs: number): Promise<boolean> {
    const answer = await this.redis.set(
      `${this.keyPrefix}${id}`,
      "1",
      "PX",
      Math.max(1, ttlMs),
      "NX",
    );
    return answer === "OK";
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/** Where confirmation tokens are checked: the secret, the used-token record and the clock. */
export interface ConfirmationOptions {
  /** The HMAC key; instances behind one load balancer need the same. @default a random per-process key */
  secret?: string;
  /** @default the process's memory */
  used?: UsedTokens;
  /** @default Date.now */
  now?: () => number;
}

const b64 = (bytes: Buffer) => bytes.toString("base64url");

/** Issues and redeems confirmation tokens (stateless apart from the used-token record). */
export class ConfirmationTokens {
  private readonly key: Buffer;
  private readonly used: UsedTokens;
  private readonly now: () => number;

  constructor(options: ConfirmationOptions = {}) {
    this.key = options.secret === undefined ? randomBytes(32) : Buffer.from(options.secret, "utf8");
    this.now = options.now ?? Date.now;
    this.used = options.used ?? new MemoryUsedTokens(this.now);
  }

  private mac(tool: string, args: unknown, expiresAt: number, nonce: string): Buffer {
    return createHmac("sha256", this.key)
      .update(
        `api-clients-mcp confirmation v1\n${tool}\n${canonical(args)}\n${expiresAt}\n${nonce}`,
      )
      .digest();
  }

  /** A new token for calling `tool` with exactly `args`. */
  issue(tool: string, args: unknown): { token: string; expiresAt: number } {
    const expiresAt = this.now() + CONFIRMATION_TTL_MS;
    const nonce = b64(randomBytes(16));
    const token = `v1.${expiresAt.toString(36)}.${nonce}.${b64(this.mac(tool, args, expiresAt, nonce))}`;
    return { token, expiresAt };
  }

  /** Uses `token` for `tool` with `args`: `true` once; a refusal otherwise. */
  async redeem(token: string, tool: string, args: unknown): Promise<true | TokenRefusal> {
    const parts = /^v1\.([0-9a-z]{1,12})\.([\w-]{22})\.([\w-]{43})$/.exec(token);
    if (parts === null) return "malformed";
    const [, expiry = "", nonce = "", given = ""] = parts;
    const expiresAt = parseInt(expiry, 36);
    const want = this.mac(tool, args, expiresAt, nonce);
    const got = Buffer.from(given, "base64url");
    if (got.length !== want.length || !timingSafeEqual(got, want)) return "other-arguments";
    const left = expiresAt - this.now();
    if (left <= 0) return "expired";
    try {
      return (await this.used.claim(nonce, left)) ? true : "used";
    } catch {
      return "unverifiable";
    }
  }

  /** Closes the used-token record (its Redis connection). */
  async close(): Promise<void> {
    await this.used.close?.();
  }
}
