// The paging loops compared in parts 2 and 3, shared by the in-process runs and the memory probe.
import { createLogsClient } from "@api-clients/logs-client";
import { Client } from "@upstash/qstash";
import { setTimeout as sleep } from "node:timers/promises";
import { busyWait } from "./stats.js";

/** The consumer's work on one page. */
async function consume(t: LoopTarget): Promise<void> {
  if (t.consumerMs <= 0) return;
  if (t.consumerKind === "io") await sleep(t.consumerMs);
  else busyWait(t.consumerMs);
}

/** Where the logs are served and how to page them. */
export interface LoopTarget {
  /** Base URL of the emulator. */
  url: string;
  /** Its logs token. */
  token: string;
  /**
   * How many entries to read: all the emulator holds, or fewer (the loops stop after that many, at a
   * page boundary when `pageSize` divides it). Loops never run more than `entries / pageSize + 2` pages.
   */
  entries: number;
  /** Entries per page (`count`). */
  pageSize: number;
  /** Consumer work per page, milliseconds (0: none). */
  consumerMs: number;
  /**
   * `cpu`: synchronous work (a busy-wait, like transforming entries); `io`: waiting (a timer, like
   * writing the page to a database).
   * @default "cpu"
   */
  consumerKind?: "cpu" | "io";
  /** Called once per page with the entries so far (the memory probe samples here). */
  onPage?: (entries: number) => void;
}

/** A loop: resolves with how many entries it read. */
export type Loop = (target: LoopTarget) => Promise<number>;

function maxPages(t: LoopTarget): number {
  return Math.ceil(t.entries / t.pageSize) + 2;
}

function tooMany(name: string): never {
  throw new Error(`${name}: more pages than the emulator holds; the cursor did not end`);
}

/** Hand-written `fetch` + cursor loop: the baseline. */
export const rawLoop: Loop = async (t) => {
  const headers = { authorization: `Bearer ${t.token}` };
  const first = `${t.url}/v2/logs?count=${t.pageSize}`;
  let cursor: string | undefined;
  let count = 0;
  for (let pages = 0; ; pages++) {
    if (pages > maxPages(t)) tooMany("raw loop");
    const url = cursor === undefined ? first : `${first}&cursor=${encodeURIComponent(cursor)}`;
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`raw loop: status ${res.status}`);
    const page = (await res.json()) as { events: { messageId: string }[]; cursor?: string };
    for (const entry of page.events) if (entry.messageId !== "") count++;
    await consume(t);
    t.onPage?.(count);
    cursor = page.cursor;
    if (cursor === undefined || cursor === "" || count >= t.entries) return count;
  }
};

/** `logs.iterate()`: entry by entry, with the default one-page prefetch. */
export const oursLoop: Loop = async (t) => {
  const logs = createLogsClient({ token: t.token, baseUrl: t.url });
  let count = 0;
  const limit = maxPages(t) * t.pageSize;
  for await (const entry of logs.iterate({ count: t.pageSize })) {
    if (entry.messageId !== "") count++;
    if (count % t.pageSize === 0) {
      await consume(t);
      t.onPage?.(count);
    }
    // Breaking out aborts the prefetched request, as an application that stops early would.
    if (count >= t.entries) break;
    if (count > limit) tooMany("logs.iterate()");
  }
  return count;
};

/** The peer SDK (`@upstash/qstash` `Client.logs()`), paged by hand as its docs show. */
export const peerLoop: Loop = async (t) => {
  const client = new Client({ token: t.token, baseUrl: t.url });
  let cursor: string | undefined;
  let count = 0;
  for (let pages = 0; ; pages++) {
    if (pages > maxPages(t)) tooMany("qstash logs()");
    const page = await client.logs(
      cursor === undefined ? { count: t.pageSize } : { count: t.pageSize, cursor },
    );
    for (const entry of page.logs) if (entry.messageId !== "") count++;
    await consume(t);
    t.onPage?.(count);
    cursor = page.cursor;
    if (cursor === undefined || cursor === "" || count >= t.entries) return count;
  }
};

/** The loops by name. */
export const LOOPS = { raw: rawLoop, ours: oursLoop, peer: peerLoop } as const;
