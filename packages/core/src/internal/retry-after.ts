/** `Retry-After` as delta-seconds (RFC 9110: digits only; no sign, fraction, hex or exponent). */
const DELTA_SECONDS = /^\d+$/;
/** `retry-after-ms`: a non-negative decimal number of milliseconds. */
const DECIMAL_MS = /^\d+(?:\.\d+)?$/;
/** An HTTP-date starts with a day name (IMF-fixdate, RFC 850 or asctime forms). */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /;

/**
 * Reads how long the server asks the client to wait, in milliseconds: `retry-after-ms` (decimal
 * milliseconds) first, then `Retry-After` as delta-seconds or an HTTP-date. Any other form (`0x2`,
 * `1e3`, `-1`, `1.5`) is ignored. Returns `undefined` when absent or invalid.
 */
export function parseRetryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms")?.trim();
  if (ms !== undefined && DECIMAL_MS.test(ms)) return Number(ms);
  const after = headers.get("retry-after")?.trim();
  if (after === undefined || after === "") return undefined;
  if (DELTA_SECONDS.test(after)) return Number(after) * 1000;
  if (!HTTP_DATE.test(after)) return undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
