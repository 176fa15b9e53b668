// Two-step confirmation of a destructive call for clients without elicitation: the first call returns
// a preview and a token bound to those exact arguments; only a second call with that token, within
// five minutes and once, sends the request.
import { createHash, randomBytes } from "node:crypto";

/** How long a confirmation token is valid, milliseconds. */
export const CONFIRMATION_TTL_MS = 5 * 60_000;
/** Most tokens outstanding at once; the oldest is dropped beyond it. */
const MAX_OUTSTANDING = 1_000;

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

const digest = (tool: string, args: unknown) =>
  createHash("sha256")
    .update(`${tool}\n${canonical(args)}`)
    .digest("hex");

/** Why a token was not accepted. */
export type TokenRefusal = "unknown" | "expired" | "other-arguments";

/**
 * The outstanding confirmation tokens of one server process (shared by the server instances a
 * stateless HTTP transport creates per request). `now` is injectable for tests.
 */
export class ConfirmationStore {
  private readonly tokens = new Map<string, { digest: string; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new token for calling `tool` with exactly `args`. */
  issue(tool: string, args: unknown): { token: string; expiresAt: number } {
    this.sweep();
    while (this.tokens.size >= MAX_OUTSTANDING) {
      const oldest = this.tokens.keys().next().value as string;
      this.tokens.delete(oldest);
    }
    const token = randomBytes(18).toString("base64url");
    const expiresAt = this.now() + CONFIRMATION_TTL_MS;
    this.tokens.set(token, { digest: digest(tool, args), expiresAt });
    return { token, expiresAt };
  }

  /** Uses `token` for `tool` with `args`: `true` once; a refusal otherwise (the token is spent either way). */
  redeem(token: string, tool: string, args: unknown): true | TokenRefusal {
    const entry = this.tokens.get(token);
    if (entry === undefined) return "unknown";
    this.tokens.delete(token);
    if (entry.expiresAt <= this.now()) return "expired";
    return entry.digest === digest(tool, args) ? true : "other-arguments";
  }

  private sweep(): void {
    const now = this.now();
    for (const [token, entry] of this.tokens) if (entry.expiresAt <= now) this.tokens.delete(token);
  }
}
