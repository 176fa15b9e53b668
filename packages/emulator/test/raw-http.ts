// A request with exactly the headers given (fetch fixes Host and adds Origin rules of its own).
import { request } from "node:http";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: unknown;
}

/** Sends one request to `url` + `path` with these headers (Host included) and reads the whole answer. */
export function send(
  url: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawAnswer> {
  const u = new URL(path, url);
  const headers = { ...init.headers };
  // Node frames a GET/DELETE/OPTIONS body only when told its length.
  if (init.body !== undefined) headers["content-length"] = String(Buffer.byteLength(init.body));
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: init.method ?? "GET",
        headers,
        setHost: !(
          init.headers && Object.keys(init.headers).some((h) => h.toLowerCase() === "host")
        ),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

/** The `{ error }` message of an answer, or a failure naming what came instead. */
export function errorText(a: RawAnswer): string {
  const b = a.body as { error?: unknown };
  if (typeof b !== "object" || b === null || typeof b.error !== "string") {
    throw new Error(`expected an { error } body, got ${a.status} ${a.text.slice(0, 200)}`);
  }
  return b.error;
}

/** Headers of a JSON admin write. */
export const JSON_HEADERS = { "content-type": "application/json" };
