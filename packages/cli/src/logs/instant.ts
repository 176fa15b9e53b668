import { UsageError } from "../context.js";

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Reads a point in time given on the command line, as Unix milliseconds: an ISO 8601 date
 * (`2025-06-01`, `2025-06-01T12:00:00Z`), Unix milliseconds (`1717243200000`), `now`, or a time before
 * now (`90s`, `15m`, `2h`, `7d`, `1w`).
 */
export function parseInstant(text: string, flag: string, now: number): number {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (trimmed === "now") return now;
  const relative = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/.exec(trimmed);
  if (relative)
    return Math.round(now - Number(relative[1]) * (UNITS[relative[2] as string] as number));
  if (/^\d{4}-\d{2}/.test(trimmed)) {
    const ms = Date.parse(trimmed);
    if (Number.isFinite(ms)) return ms;
  }
  throw new UsageError(
    `${flag}: expected an ISO date (2025-06-01T12:00:00Z), Unix milliseconds or a time ago (15m, 2h, 7d), got ${JSON.stringify(text)}`,
  );
}
