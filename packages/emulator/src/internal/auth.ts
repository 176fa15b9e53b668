// Authentication: Bearer token for the logs API, HTTP Basic for management; compared in constant time.
import { HttpError } from "./http-error.js";
import type { Account } from "./resource.js";
import { sameDigest as same, sha256 as digest } from "./sha256.js";

/** UTF-8 text of base64 (lenient like `Buffer.from(…, "base64")`: what is not base64 decodes to "" ). */
function fromBase64(b64: string): string {
  try {
    // Node's decoder also reads the URL-safe alphabet and ignores anything else, a lone last char included.
    let clean = b64
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .replace(/[^A-Za-z0-9+/]/g, "");
    if (clean.length % 4 === 1) clean = clean.slice(0, -1);
    const bin = atob(clean);
    return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return "";
  }
}

const unauthorized = (message: string, scheme: string): HttpError =>
  new HttpError(401, message, { "www-authenticate": `${scheme} realm="api-clients-emulator"` });

/** Characters a credential may not hold: controls, and whitespace a header would fold or trim. */
const BAD_CHARS = /[\u0000-\u0020\u007f]/;

/**
 * Checks the credentials given to `startEmulator()`; throws a TypeError naming the field (never its
 * value: these are secrets) when one could never be sent, or would make two accounts share a header.
 */
export function checkCredentials(logsToken: unknown, accounts: readonly unknown[]): void {
  if (typeof logsToken !== "string" || logsToken === "" || BAD_CHARS.test(logsToken)) {
    throw new TypeError(
      "logsToken: must be a non-empty string without spaces or control characters",
    );
  }
  const seen = new Set<string>();
  accounts.forEach((a, i) => {
    const where = `accounts[${i}]`;
    if (typeof a !== "object" || a === null)
      throw new TypeError(`${where}: must be { email, apiKey }`);
    const { email, apiKey } = a as Record<string, unknown>;
    if (typeof email !== "string" || email === "" || BAD_CHARS.test(email)) {
      throw new TypeError(
        `${where}.email: must be a non-empty string without spaces or control characters`,
      );
    }
    if (email.includes(":")) {
      throw new TypeError(
        `${where}.email: must not contain ":" (HTTP Basic separates the user from the password with it)`,
      );
    }
    if (typeof apiKey !== "string" || apiKey === "") {
      throw new TypeError(`${where}.apiKey: must be a non-empty string`);
    }
    if (/[\u0000-\u001f\u007f]/.test(apiKey)) {
      throw new TypeError(`${where}.apiKey: must not contain control characters`);
    }
    if (seen.has(email)) throw new TypeError(`${where}.email: is given twice`);
    seen.add(email);
  });
}

/** Holds the credentials and checks `Authorization` headers against them. */
export class Auth {
  private logsDigest: Uint8Array;
  private accounts: { account: Account; email: Uint8Array; key: Uint8Array }[];

  constructor(logsToken: string, accounts: readonly Account[]) {
    this.logsDigest = digest(logsToken);
    this.accounts = accounts.map((account) => ({
      account,
      email: digest(account.email),
      key: digest(account.apiKey),
    }));
  }

  /**
   * Checks `Authorization: Bearer <token>`: the logs token, or one `alsoValid` accepts (a QStash
   * user's current token); throws 401 when missing or wrong.
   */
  bearer(header: string | undefined, alsoValid?: (token: string) => boolean): void {
    const m = /^Bearer\s+(\S.*)$/i.exec(header ?? "");
    if (!m) throw unauthorized("authorization: a Bearer token is required", "Bearer");
    const given = (m[1] ?? "").trim();
    if (!same(digest(given), this.logsDigest) && !alsoValid?.(given)) {
      throw unauthorized("authorization: the token is not valid", "Bearer");
    }
  }

  /** Checks `Authorization: Basic <email:apiKey>` and returns the account; throws 401 otherwise. */
  basic(header: string | undefined): Account {
    const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? "");
    if (!m)
      throw unauthorized(
        "authorization: HTTP Basic credentials (e-mail and API key) are required",
        "Basic",
      );
    const decoded = fromBase64(m[1] ?? "");
    const colon = decoded.indexOf(":");
    // No password (no colon, or nothing after it) is never valid, whatever the accounts hold.
    const hasPassword = colon >= 0 && colon < decoded.length - 1;
    const email = digest(colon < 0 ? decoded : decoded.slice(0, colon));
    const key = digest(colon < 0 ? "" : decoded.slice(colon + 1));
    let found: Account | undefined;
    // Compare against every account, without stopping early, so timing says nothing about which matched.
    for (const a of this.accounts) {
      const emailOk = same(email, a.email);
      const keyOk = same(key, a.key);
      if (emailOk && keyOk && !found) found = a.account;
    }
    if (!found || !hasPassword)
      throw unauthorized("authorization: the e-mail or API key is not valid", "Basic");
    return found;
  }
}
