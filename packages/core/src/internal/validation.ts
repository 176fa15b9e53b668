import { ValidationError } from "../errors.js";

function quoteList(values: readonly string[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}

/** Returns the value when it is a non-empty string; otherwise throws `ValidationError`. */
export function requireNonEmptyString(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "") {
    throw new ValidationError(field, "must be a non-empty string");
  }
  return value;
}

/**
 * Returns the value when it can be a URL path segment (a non-empty string other than `.` and `..`);
 * openapi-fetch then percent-encodes it, so `../teams` stays inside its segment.
 */
export function requirePathSegment(value: unknown, field: string): string {
  const segment = requireNonEmptyString(value, field);
  if (segment === "." || segment === "..") {
    throw new ValidationError(field, 'must not be "." or ".."');
  }
  return segment;
}

/**
 * Returns the value when it is one of `allowed`; otherwise throws `ValidationError`.
 *
 * @example
 * requireOneOf("us", "region", ["eu-west-1", "us-east-1"]); // throws 'region: must be one of "eu-west-1", "us-east-1"'
 */
export function requireOneOf<const T extends string>(
  value: unknown,
  field: string,
  allowed: readonly T[],
): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new ValidationError(field, `must be one of ${quoteList(allowed)}`);
  }
  return value as T;
}

/** Inclusive bounds for {@link requireInteger}. */
export interface IntegerBounds {
  /** Smallest allowed value. */
  min?: number;
  /** Largest allowed value. */
  max?: number;
}

/**
 * Returns the value when it is an integer within the bounds; otherwise throws `ValidationError`.
 *
 * @example
 * requireInteger(0, "count", { min: 1, max: 1000 }); // throws "count: must be an integer from 1 to 1000"
 */
export function requireInteger(value: unknown, field: string, bounds: IntegerBounds = {}): number {
  const { min, max } = bounds;
  const ok =
    typeof value === "number" &&
    Number.isInteger(value) &&
    (min === undefined || value >= min) &&
    (max === undefined || value <= max);
  if (!ok) {
    let rule = "must be an integer";
    if (min !== undefined && max !== undefined) rule += ` from ${min} to ${max}`;
    else if (min !== undefined) rule += ` >= ${min}`;
    else if (max !== undefined) rule += ` <= ${max}`;
    throw new ValidationError(field, rule);
  }
  return value;
}

/** Returns the value when it is a boolean; otherwise throws `ValidationError`. */
export function requireBoolean(value: unknown, field: string): boolean {
  if (typeof value !== "boolean") throw new ValidationError(field, "must be a boolean");
  return value;
}

/** Returns the value when it is a plain object (not null, an array, a Date, …); otherwise throws. */
export function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null) {
    throw new ValidationError(field, "must be an object");
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    throw new ValidationError(field, "must be a plain object");
  }
  return value as Record<string, unknown>;
}

/**
 * Throws `ValidationError` naming the first key of `obj` that is not in `allowedKeys` (catches typos
 * such as `mesageId` from untyped callers).
 */
export function rejectUnknownKeys(
  obj: object,
  field: string,
  allowedKeys: readonly string[],
): void {
  for (const key of Object.keys(obj)) {
    if (!allowedKeys.includes(key)) {
      throw new ValidationError(
        `${field}.${key}`,
        `is not a known option (expected one of ${quoteList(allowedKeys)})`,
      );
    }
  }
}
