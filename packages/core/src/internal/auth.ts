/**
 * The `Authorization` value of HTTP Basic auth: `user:password` encoded as UTF-8, then base64
 * (RFC 7617), with web APIs only, so it works in browsers as well as in Node.
 *
 * @example
 * basicAuthorization("ops@example.com", "key") // "Basic b3BzQGV4YW1wbGUuY29tOmtleQ=="
 */
export function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** The `Authorization` value of a bearer token. */
export function bearerAuthorization(token: string): string {
  return `Bearer ${token}`;
}
