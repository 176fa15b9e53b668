// Who may call what from a browser: CORS for the two APIs, and the guard of the admin API
// (loopback Host, same-machine Origin, JSON writes) against cross-site requests and DNS rebinding.
import { HttpError } from "./http-error.js";

/** Headers a browser script may read on an API answer (besides the CORS-safelisted ones). */
export const EXPOSED_HEADERS = [
  "retry-after",
  "retry-after-ms",
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "burst-ratelimit-limit",
  "burst-ratelimit-remaining",
  "burst-ratelimit-reset",
  "x-request-id",
  "www-authenticate",
  "allow",
] as const;

/** Request headers every preflight allows (plus whatever the browser asks for). */
const ALLOWED_HEADERS = ["authorization", "content-type"];
/** Methods the two APIs use. */
const API_METHODS = "GET, POST, PUT, PATCH, DELETE";
/** How long a browser may cache a preflight answer, seconds. */
export const PREFLIGHT_MAX_AGE = 600;

/** CORS of the logs and management APIs: `"*"`, one origin, a list of origins, or none. */
export type CorsSetting = "*" | string | readonly string[] | false;

/** Normalizes an origin (`HTTP://LocalHost:80` → `http://localhost`), or undefined when it is not one. */
export function normalizeOrigin(origin: string): string | undefined {
  if (origin === "null") return undefined;
  try {
    const u = new URL(origin);
    if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
    if (u.origin === "null" || u.pathname !== "/" || u.search || u.hash || u.username) {
      return undefined;
    }
    return u.origin;
  } catch {
    return undefined;
  }
}

/** Checks the `corsOrigin` option; throws a TypeError saying what is wrong. */
export function checkCorsSetting(cors: unknown): CorsSetting {
  if (cors === undefined || cors === "*") return "*";
  if (cors === false) return false;
  const list = typeof cors === "string" ? [cors] : cors;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError(
      'corsOrigin: must be "*", an origin, a non-empty list of origins, or false',
    );
  }
  const out = list.map((o: unknown) => {
    const n = typeof o === "string" ? normalizeOrigin(o) : undefined;
    if (!n) {
      throw new TypeError(
        `corsOrigin: ${JSON.stringify(o)} is not an origin such as http://localhost:5173`,
      );
    }
    return n;
  });
  return typeof cors === "string" ? (out[0] as string) : out;
}

const header = (headers: Headers, name: string): string | undefined =>
  headers.get(name) ?? undefined;

/** Allowed request headers: the base list plus the requested ones that are valid header names. */
function allowedHeaders(requested: string | undefined): string {
  const names = new Set(ALLOWED_HEADERS);
  for (const h of (requested ?? "").split(",")) {
    const n = h.trim().toLowerCase();
    if (/^[!#$%&'*+.^_`|~0-9a-z-]{1,64}$/.test(n)) names.add(n);
    if (names.size >= 32) break;
  }
  return [...names].join(", ");
}

/** Sets the CORS headers of an API answer (errors and injected faults included). */
export function applyCors(cors: CorsSetting, headers: Headers, out: Headers): void {
  if (cors === false) return;
  let allow: string | undefined;
  if (typeof cors === "string") allow = cors;
  else {
    out.set("vary", "Origin");
    const origin = header(headers, "origin");
    const n = origin === undefined ? undefined : normalizeOrigin(origin);
    if (n && cors.includes(n)) allow = origin;
  }
  if (allow === undefined) return;
  out.set("access-control-allow-origin", allow);
  out.set("access-control-expose-headers", EXPOSED_HEADERS.join(", "));
}

/** True for a CORS preflight: `OPTIONS` with `Access-Control-Request-Method`. */
export const isPreflight = (method: string, headers: Headers): boolean =>
  method === "OPTIONS" && headers.has("access-control-request-method");

/** Answers a preflight of the APIs with 204 (CORS headers were set by `applyCors` in `out`). */
export function answerApiPreflight(headers: Headers, out: Headers): Response {
  out.set("access-control-allow-methods", API_METHODS);
  out.set(
    "access-control-allow-headers",
    allowedHeaders(header(headers, "access-control-request-headers")),
  );
  out.set("access-control-max-age", String(PREFLIGHT_MAX_AGE));
  out.set("vary", "Origin, Access-Control-Request-Headers");
  return new Response(null, { status: 204, headers: out });
}

// --- admin API ------------------------------------------------------------------------------------

/** Who may use the admin API besides loopback names and origins. */
export interface AdminAccess {
  /** Extra host names (lower case, no port) accepted in `Host`. */
  readonly hosts: ReadonlySet<string>;
  /** Extra origins accepted in `Origin`. */
  readonly origins: ReadonlySet<string>;
}

const LOOPBACK_IPV4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** True for `localhost`, `127.x.y.z`, `[::1]` and `[::ffff:127.x.y.z]` (lower case, no port). */
export function isLoopbackName(name: string): boolean {
  if (name === "localhost" || name === "[::1]") return true;
  const v4 = name.startsWith("[::ffff:") && name.endsWith("]") ? name.slice(8, -1) : name;
  const m = LOOPBACK_IPV4.exec(v4);
  return m !== null && m.slice(1).every((o) => Number(o) <= 255);
}

/** The host name of a `Host` header (lower case, port removed), or undefined when malformed. */
export function hostName(host: string): string | undefined {
  const h = host.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/.exec(h);
  return m?.[1];
}

/** Checks the admin options; throws a TypeError saying what is wrong. */
export function checkAdminAccess(hosts: unknown, origins: unknown): AdminAccess {
  const list = (v: unknown, name: string): unknown[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new TypeError(`${name}: must be an array`);
    return v;
  };
  const hostSet = new Set<string>();
  for (const h of list(hosts, "adminHosts")) {
    const n = typeof h === "string" ? hostName(h) : undefined;
    if (!n || (typeof h === "string" && n !== h.trim().toLowerCase())) {
      throw new TypeError(
        `adminHosts: ${JSON.stringify(h)} is not a host name (without port) such as emulator.test`,
      );
    }
    hostSet.add(n);
  }
  const originSet = new Set<string>();
  for (const o of list(origins, "adminOrigins")) {
    const n = typeof o === "string" ? normalizeOrigin(o) : undefined;
    if (!n) {
      throw new TypeError(
        `adminOrigins: ${JSON.stringify(o)} is not an origin such as http://localhost:5173`,
      );
    }
    originSet.add(n);
  }
  return { hosts: hostSet, origins: originSet };
}

/** True when the origin is a loopback page or one of the configured ones. */
function originAllowed(origin: string, access: AdminAccess): boolean {
  const n = normalizeOrigin(origin);
  if (!n) return false;
  return isLoopbackName(new URL(n).hostname) || access.origins.has(n);
}

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Guards an admin request; throws a 403/415 HttpError when it comes from another site (a foreign
 * `Origin`), through DNS rebinding (a `Host` that is not a loopback or configured name), or is a write
 * a browser could send without a preflight (not `application/json`). On an allowed `Origin`, sets
 * `Access-Control-Allow-Origin` to that origin (never `*`).
 */
export function guardAdmin(
  access: AdminAccess,
  method: string,
  headers: Headers,
  host: string | undefined,
  out: Headers,
): void {
  const name = host === undefined ? undefined : hostName(host);
  if (!name || !(isLoopbackName(name) || access.hosts.has(name))) {
    throw new HttpError(
      403,
      `host: the admin API answers only requests addressed to localhost, 127.0.0.1 or [::1] (or a name given in adminHosts / --admin-host), not ${JSON.stringify((host ?? "").slice(0, 100))}`,
    );
  }
  const origin = header(headers, "origin");
  if (origin !== undefined) {
    if (!originAllowed(origin, access)) {
      throw new HttpError(
        403,
        `origin: the admin API answers only pages served from loopback (or an origin given in adminOrigins / --admin-origin), not ${JSON.stringify(origin.slice(0, 100))}`,
      );
    }
    out.set("access-control-allow-origin", origin);
  }
  out.set("vary", "Origin");
  if (WRITE_METHODS.has(method)) {
    const type = (header(headers, "content-type") ?? "").split(";")[0]?.trim().toLowerCase();
    if (type !== "application/json") {
      throw new HttpError(
        415,
        "content-type: admin writes must be sent with Content-Type: application/json",
      );
    }
  }
}

/** Answers a preflight of the admin API (already guarded, so from an allowed origin) with 204. */
export function answerAdminPreflight(out: Headers): Response {
  out.set("access-control-allow-methods", "GET, POST, DELETE");
  out.set("access-control-allow-headers", "content-type");
  out.set("access-control-max-age", String(PREFLIGHT_MAX_AGE));
  return new Response(null, { status: 204, headers: out });
}
