// Shared helpers: real HTTP against a started emulator, with the global fetch.
import { startEmulator, type Emulator, type EmulatorOptions } from "../src/index.js";

export const ALICE = { email: "alice@example.com", apiKey: "alice-key" };
export const BOB = { email: "bob@example.com", apiKey: "bob-key" };
export const LOGS_TOKEN = "test-logs-token";

/** Starts an emulator with two management accounts and a known logs token. */
export function start(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ logsToken: LOGS_TOKEN, accounts: [ALICE, BOB], ...options });
}

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** `GET /v2/logs` (or another logs path) with the Bearer token. */
export async function getLogs(
  emu: Emulator,
  query: Record<string, string | number> = {},
  path = "/v2/logs",
  token = LOGS_TOKEN,
): Promise<Answer> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const s = qs.toString();
  return answer(
    await fetch(`${emu.url}${path}${s ? `?${s}` : ""}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
}

/** A management call with HTTP Basic credentials of `account`. */
export async function mgmt(
  emu: Emulator,
  method: string,
  path: string,
  body?: unknown,
  account: { email: string; apiKey: string } = ALICE,
): Promise<Answer> {
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${account.email}:${account.apiKey}`).toString("base64")}`,
  };
  if (body !== undefined) headers["content-type"] = "application/json";
  return answer(
    await fetch(`${emu.url}${path}`, {
      method,
      headers,
      ...(body === undefined
        ? {}
        : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    }),
  );
}

/** A raw fetch against the emulator, answered as an Answer. */
export async function raw(emu: Emulator, path: string, init: RequestInit = {}): Promise<Answer> {
  return answer(await fetch(`${emu.url}${path}`, init));
}

/** Error bodies always have a string `error`. */
export function errorOf(a: Answer): string {
  const b = a.body as { error?: unknown };
  if (typeof b !== "object" || b === null || typeof b.error !== "string") {
    throw new Error(`expected an { error } body, got ${a.text}`);
  }
  return b.error;
}

export interface LogPage {
  cursor?: string;
  events: { time: number; messageId: string; state: string; [k: string]: unknown }[];
}

/** Pages to the end of a listing and returns every entry. */
export async function pageAll(
  emu: Emulator,
  query: Record<string, string | number>,
  between?: (page: number) => Promise<void> | void,
): Promise<LogPage["events"]> {
  const out: LogPage["events"] = [];
  let cursor: string | undefined;
  let page = 0;
  do {
    const a = await getLogs(emu, { ...query, ...(cursor ? { cursor } : {}) });
    if (a.status !== 200) throw new Error(`page ${page}: ${a.status} ${a.text}`);
    const body = a.body as LogPage;
    out.push(...body.events);
    cursor = body.cursor;
    page++;
    if (between) await between(page);
  } while (cursor);
  return out;
}
