// Authentication: Bearer token for the logs API, HTTP Basic for management; compared in constant time.
import { createHash, timingSafeEqual } from "node:crypto";
import { HttpError, type Account } from "./management-state.js";

const digest = (s: string): Buffer => createHash("sha256").update(s, "utf8").digest();
/** Equal-length digests make `timingSafeEqual` usable for secrets of any length. */
const same = (a: Buffer, b: Buffer): boolean => timingSafeEqual(a, b);

const unauthorized = (message: string, scheme: string): HttpError =>
  new HttpError(401, message, { "www-authenticate": `${scheme} realm="api-clients-emulator"` });

/** Holds the credentials and checks `Authorization` headers against them. */
export class Auth {
  private logsDigest: Buffer;
  private accounts: { account: Account; email: Buffer; key: Buffer }[];

  constructor(logsToken: string, accounts: readonly Account[]) {
    this.logsDigest = digest(logsToken);
    this.accounts = accounts.map((account) => ({
      account,
      email: digest(account.email),
      key: digest(account.apiKey),
    }));
  }

  /** Checks `Authorization: Bearer <token>`; throws 401 when missing or wrong. */
  bearer(header: string | undefined): void {
    const m = /^Bearer\s+(\S.*)$/i.exec(header ?? "");
    if (!m) throw unauthorized("authorization: a Bearer token is required", "Bearer");
    if (!same(digest((m[1] ?? "").trim()), this.logsDigest)) {
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
    const decoded = Buffer.from(m[1] ?? "", "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    const email = digest(colon < 0 ? decoded : decoded.slice(0, colon));
    const key = digest(colon < 0 ? "" : decoded.slice(colon + 1));
    let found: Account | undefined;
    // Compare against every account, without stopping early, so timing says nothing about which matched.
    for (const a of this.accounts) {
      const emailOk = same(email, a.email);
      const keyOk = same(key, a.key);
      if (emailOk && keyOk && !found) found = a.account;
    }
    if (!found) throw unauthorized("authorization: the e-mail or API key is not valid", "Basic");
    return found;
  }
}
