// Issue 24, emulator: a restore is all or nothing and refuses malformed records (8, 19); `__proto__`
// fields survive a snapshot (23); host/path listings use an index (11); a malformed request's connection
// is destroyed after a bounded time (12). All over real sockets.
import { connect } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Emulator, EmulatorSnapshot } from "../../src/index.js";
import { errorOf, getLogs, mgmt, raw, start } from "../helpers.js";

let emu: Emulator;
beforeAll(async () => {
  emu = await start({ seedLogs: 50 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const restore = (body: unknown) =>
  raw(emu, "/__emulator/restore", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const names = async (): Promise<string[]> =>
  ((await mgmt(emu, "GET", "/v2/redis/databases")).body as { database_name: string }[]).map(
    (d) => d.database_name,
  );

describe("restore: all or nothing, malformed records refused (issue 24, 8 and 19)", () => {
  it("a snapshot with a malformed record is a 400 naming it, and the state is unchanged", async () => {
    await mgmt(emu, "POST", "/v2/redis/database", { name: "before", region: "us-east-1" });
    await mgmt(emu, "POST", "/v2/team", { team_name: "team-before", copy_cc: false });
    emu.logs.append([{ messageId: "msg_before", state: "CREATED" }]);
    const good = emu.snapshot();
    const database = good.management.databases[0]!;
    const team = good.management.teams[0]!;
    const cases: [unknown, RegExp][] = [
      [
        { ...good.management, databases: [{ owner: database.owner }] },
        /databases\[0\]\.record: must be an object/,
      ],
      [
        {
          ...good.management,
          databases: [{ ...database, record: { ...database.record, read_regions: "x" } }],
        },
        /databases\[0\]\.record\.read_regions: must be an array of strings/,
      ],
      [
        { ...good.management, teams: [{ ...team, members: [["a@b.c", "emperor"]] }] },
        /teams\[0\]\.members/,
      ],
      [
        { ...good.management, teams: [{ team_id: "t" }] },
        /teams\[0\]\.team_name: must be a string/,
      ],
      [
        { ...good.management, backups: [{ backup_id: "b" }] },
        /backups\[0\]\.name: must be a string/,
      ],
      [
        { ...good.management, indexes: [{ owner: "x", record: { id: 1 } }] },
        /indexes\[0\]\.record\.id/,
      ],
    ];
    for (const [management, message] of cases) {
      const answer = await restore({ ...good, management, logs: { nextSeq: 1, appended: [] } });
      expect(answer.status, answer.text).toBe(400);
      expect(errorOf(answer)).toMatch(message);
      // Nothing changed: the database, the team and the appended entry are all still there.
      expect(await names()).toEqual(["before"]);
      expect((await mgmt(emu, "GET", "/v2/teams")).body).toHaveLength(1);
      expect(emu.logs.size).toBe(51);
      // And every later call still answers (no 500 from a half-restored state).
      expect((await mgmt(emu, "GET", "/v2/teams")).status).toBe(200);
    }
    expect(() =>
      emu.restore({ ...good, management: { ...good.management, teams: [{}] } } as never),
    ).toThrow(/teams\[0\]/);
    expect(await names()).toEqual(["before"]);
  });
});

describe("snapshot keeps fields named __proto__ (issue 24, 23)", () => {
  it("an appended entry's __proto__ field is in the snapshot, survives a restore and is listed", async () => {
    const entry = JSON.parse(
      '{"messageId":"msg_proto","state":"CREATED","__proto__":{"polluted":1}}',
    );
    const appended = await raw(emu, "/__emulator/logs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([entry]).replace('"__proto__"', '"__proto__"'),
    });
    expect(appended.status, appended.text).toBe(200);
    const snap = JSON.parse(JSON.stringify(emu.snapshot())) as EmulatorSnapshot;
    const kept = snap.logs.appended.find((e) => e["messageId"] === "msg_proto")!;
    expect(Object.hasOwn(kept, "__proto__")).toBe(true);
    expect(JSON.stringify(kept)).toContain('"__proto__":{"polluted":1}');
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    emu.reset();
    expect((await restore(snap)).status).toBe(200);
    const listed = await getLogs(emu, { messageId: "msg_proto" });
    expect(listed.text).toContain('"__proto__":{"polluted":1}');
  });
});

describe("host and path filters (issue 24, 11)", () => {
  it("are answered from an index: the matching entries, in order, across cursors", async () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({
      messageId: `msg_h_${i}`,
      state: "DELIVERED",
      url: i % 3 === 0 ? `https://Hook.Example:8443/p/${i % 2}` : "https://other.example/p/0",
    }));
    emu.logs.append(entries);
    const ids = async (query: Record<string, string | number>) => {
      const out: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (await getLogs(emu, { ...query, count: 3, ...(cursor ? { cursor } : {}) }))
          .body as {
          events: { messageId: string }[];
          cursor?: string;
        };
        out.push(...page.events.map((e) => e.messageId));
        cursor = page.cursor;
      } while (cursor);
      return out;
    };
    const hooked = entries
      .filter((_, i) => i % 3 === 0)
      .map((e) => e.messageId)
      .reverse();
    expect(await ids({ host: "hook.example" })).toEqual(hooked);
    expect(await ids({ host: "hook.example:8443" })).toEqual(hooked);
    expect(await ids({ host: "hook.example", path: "/p/1" })).toEqual(
      entries
        .filter((_, i) => i % 3 === 0 && i % 2 === 1)
        .map((e) => e.messageId)
        .reverse(),
    );
    expect(await ids({ host: "nobody.example" })).toEqual([]);
  });
});

describe("malformed and timed-out connections (issue 24, 12)", () => {
  it("a malformed request gets a 400 and its connection is destroyed, even when the client keeps its side open", async () => {
    const socket = connect({ host: "127.0.0.1", port: emu.port, allowHalfOpen: true });
    let text = "";
    socket.setEncoding("utf8").on("data", (d: string) => (text += d));
    const ended = new Promise<void>((resolve) => socket.once("end", resolve));
    const closed = new Promise<string>((resolve) => {
      socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
      socket.once("close", () => resolve("close"));
    });
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write("NOT HTTP AT ALL\r\n\r\n");
    await ended;
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    // The server's side is gone after its bounded linger: what the client sends then is refused
    // (the first write draws a reset, a later one fails).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    let outcome = "still open";
    void closed.then((o) => (outcome = o));
    for (let i = 0; i < 10 && outcome === "still open"; i++) {
      socket.write("more\r\n");
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    socket.destroy();
    expect(["ECONNRESET", "EPIPE", "close"]).toContain(outcome);
  });
});
