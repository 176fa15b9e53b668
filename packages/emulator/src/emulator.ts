// Assembles the emulator: spec-driven router, stores, faults, auth and the HTTP server.
import { operations } from "./generated/operations.js";
import { checkAdminAccess, checkCorsSetting } from "./internal/access.js";
import { createAdmin } from "./internal/admin.js";
import { Auth, checkCredentials } from "./internal/auth.js";
import { createEntropy, token } from "./internal/entropy.js";
import { Faults, type FaultRule } from "./internal/faults.js";
import { generateLogs } from "./internal/log-generator.js";
import { simulateEntries, type SimulateMessageOptions } from "./internal/simulate-message.js";
import { entriesProblem, simulateProblem } from "./internal/limits.js";
import { snapshotProblem } from "./internal/snapshot-checks.js";
import { entryObject, fromObject, type StoredEntry } from "./internal/log-entry.js";
import { LogsStore } from "./internal/logs-store.js";
import { ManagementState, type ManagementSnapshot } from "./internal/management-state.js";
import { rateLimitProblem, RateLimits, type RateLimitCounts } from "./internal/rate-limits.js";
import { RequestLog, type RequestRecord } from "./internal/request-log.js";
import {
  Scenarios,
  type ScenarioHandle,
  type ScenarioName,
  type ScenarioOptions,
} from "./internal/scenarios.js";
import { Router } from "./internal/router.js";
import { ConnectionReset } from "./internal/answers.js";
import { handleFetch, type ServerContext } from "./internal/handler.js";
import { listen } from "./internal/node-server.js";

/** A management account the emulator accepts (HTTP Basic: e-mail as user, API key as password). */
export interface EmulatorAccount {
  /** E-mail of the account (the Basic user name). */
  email: string;
  /** API key of the account (the Basic password). */
  apiKey: string;
}

/** Options of `startEmulator()`. */
export interface EmulatorOptions {
  /** TCP port; 0 picks a free one. @default 0 */
  port?: number;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** Number of log entries to generate at start. @default 0 */
  seedLogs?: number;
  /** Seed of the log generator: the same seed gives the same entries. @default 1 */
  seed?: number;
  /** Time of the newest generated entry, Unix milliseconds. @default Date.now() at start */
  logsEndTime?: number;
  /** Bearer token of the logs API. @default a random token */
  logsToken?: string;
  /**
   * Management accounts; the first one is `credentials`. Each needs a non-empty `apiKey` and an `email`
   * without `:` or spaces, and no e-mail may appear twice: `startEmulator()` throws a TypeError
   * otherwise. @default one account with a random API key
   */
  accounts?: EmulatorAccount[];
  /**
   * Origins whose browser scripts may read the logs and management APIs' answers
   * (`Access-Control-Allow-Origin`): `"*"` for any, one origin (`"http://localhost:5173"`), a list
   * (the request's origin is echoed when listed), or `false` for no CORS headers at all. Preflights
   * are answered with 204. The admin API never follows this setting (see `adminOrigins`).
   * @default "*" (the emulator binds to loopback)
   */
  corsOrigin?: "*" | (string & {}) | readonly string[] | false;
  /**
   * Host names (without port) the admin API accepts in `Host`, besides `localhost`, `127.x.x.x` and
   * `[::1]`; other names get 403, which stops DNS-rebinding pages from reading the snapshot. Add the
   * name you reach the emulator by when it is not a loopback name (an `/etc/hosts` alias, say).
   * @default []
   */
  adminHosts?: readonly string[];
  /**
   * Origins (`http://host:port`) whose pages may call the admin API, besides pages served from
   * loopback names; requests from any other `Origin` get 403. Requests without `Origin` (curl, Node)
   * are not affected. @default []
   */
  adminOrigins?: readonly string[];
  /**
   * Requests per second each logs token may make (the service's burst limit); past it the logs API
   * answers 429. Every logs answer then states `Burst-RateLimit-Limit/Remaining/Reset` (Reset in Unix
   * seconds; windows are whole seconds). @default undefined (unlimited, no headers)
   */
  burstLimit?: number;
  /**
   * Requests per UTC day each logs token may make (the service's daily quota); past it the logs API
   * answers 429. Every logs answer then states `RateLimit-Limit/Remaining/Reset`.
   * @default undefined (unlimited, no headers)
   */
  dailyQuota?: number;
  /**
   * The emulator's clock, Unix milliseconds: creation times, statistics, the audit log, rate-limit
   * windows and the newest generated entry read it. @default Date.now
   */
  clock?: () => number;
  /**
   * Seed of the ids, tokens and passwords the emulator makes: two emulators with the same `idSeed`
   * (and `clock`) answer the same requests with the same bytes. Keep it for tests: the secrets it
   * makes are predictable. @default undefined (from `crypto.getRandomValues`)
   */
  idSeed?: number;
  /**
   * The field log pages put their entries under: `events` (the seed's and the clients' older
   * reference) or `logs` (the newest published reference); the clients read both.
   * @default "events"
   */
  logsField?: "events" | "logs";
  /**
   * Called with each API request once it is answered (method, path without query, status,
   * operationId, `traceparent`); the CLI's `--log-requests` prints them. @default undefined
   */
  onRequest?: (record: RequestRecord) => void;
  /** Longest time to receive a whole request, milliseconds. @default 30000 */
  requestTimeoutMs?: number;
  /** Longest time to receive the request headers, milliseconds. @default 10000 */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, milliseconds. @default 5000 */
  keepAliveTimeoutMs?: number;
}

/** A log entry as the emulator serves it: `time` in Unix milliseconds, plus any reference field. */
export interface LogEntry {
  time: number;
  messageId: string;
  state: string;
  [field: string]: unknown;
}

/** A log entry to append: `time` defaults to now, `messageId` to a new id, `state` to `CREATED`. */
export interface LogEntryInput {
  time?: number | string;
  messageId?: string;
  state?: string;
  [field: string]: unknown;
}

/** The whole state of an emulator, as JSON, for `restore()` or `POST /__emulator/restore`. */
export interface EmulatorSnapshot {
  version: 1;
  management: ManagementSnapshot;
  /** Generated entries are not copied (they are regenerated from the seed); appended ones are. */
  logs: { nextSeq: number; appended: (LogEntry & { seq: number })[] };
}

/** The log store of a running emulator. */
export interface EmulatorLogs {
  /**
   * Adds entries (a state of a message each) and returns them as stored. Throws a TypeError past the
   * limits of the README's "Limits and protections" (10,000 entries, 32 levels and 64 KiB per entry,
   * `time` an integer from 0 to 8.64e15).
   */
  append(entries: readonly LogEntryInput[]): LogEntry[];
  /**
   * Adds the whole life of one message (CREATED → ACTIVE → … → outcome) and returns its entries.
   * Throws a TypeError past the limits (`retries` at most 1,000, `stepMs` at most one day).
   */
  simulateMessage(opts?: SimulateMessageOptions): { messageId: string; entries: LogEntry[] };
  /** The entries of one message, oldest first. */
  message(messageId: string): LogEntry[];
  /** Number of entries stored. */
  readonly size: number;
}

/**
 * An emulator without a socket (`createEmulator()`): its `fetch` answers every request of both APIs
 * and of the admin API in process, exactly as the HTTP server of `startEmulator()` does.
 */
export interface InProcessEmulator {
  /**
   * Answers a request as the emulator's HTTP server would, without a socket: pass it as the clients'
   * `fetch` option (any base URL works; the host names nothing). A fault that resets the connection
   * rejects with a `TypeError`, as a failed `fetch` does.
   *
   * @example
   * const emu = createEmulator();
   * const logs = createLogsClient({ token: emu.credentials.logsToken, baseUrl: "https://emulator.test", fetch: emu.fetch });
   */
  readonly fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /** Logs token and the first management account. */
  readonly credentials: { logsToken: string; email: string; apiKey: string };
  /** Every management account. */
  readonly accounts: readonly EmulatorAccount[];
  /** The log store. */
  readonly logs: EmulatorLogs;
  /** Fault injection: rules applied before normal handling. */
  readonly faults: { add(rule: FaultRule): void; clear(): void; readonly size: number };
  /**
   * Logs requests let through and refused (429) since start or `reset()`: by `burstLimit`/`dailyQuota`
   * and by the rate-limit scenarios. Also `GET /__emulator/rate-limits`.
   */
  readonly rateLimits: RateLimitCounts;
  /**
   * Starts a named scenario (README, "Scenarios"): `burst-limit-exhausted`, `daily-quota-exhausted`,
   * `server-errors`, `slow-body`, `truncated-body`, `connection-reset`, `expired-cursor`,
   * `database-deleted`, `logs-field`. Scenarios compose; each ends after `times` requests, after
   * `durationMs`, on `end()` or on `reset()`. Throws a TypeError for an unknown name or option.
   *
   * @example
   * emu.scenario("server-errors", { status: 503, times: 2, operationId: "listLogs" });
   */
  scenario(name: ScenarioName, options?: ScenarioOptions): ScenarioHandle;
  /**
   * The last 1,000 API requests (admin requests excluded), oldest first: method, path (never the
   * query), status, operationId, and the W3C `traceparent`/`tracestate` each carried.
   */
  requests(): RequestRecord[];
  /** Back to the state at start: generated logs only, no management resources, no faults, no requests, fresh rate-limit windows. */
  reset(): void;
  /** The current state (management resources and appended logs). */
  snapshot(): EmulatorSnapshot;
  /** Replaces the state with a snapshot. */
  restore(snapshot: EmulatorSnapshot): void;
}

/** A running emulator: the in-process one, also served over HTTP. */
export interface Emulator extends InProcessEmulator {
  /** Base URL serving both APIs, e.g. `http://127.0.0.1:54321`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Stops the server and closes every connection. */
  close(): Promise<void>;
}

const randomToken = (prefix: string): string => prefix + token(createEntropy(), 24);

/** Routes both specs' operations; the router is the same for every emulator. */
let sharedRouter: Router | undefined;
const router = (): Router => (sharedRouter ??= new Router(operations));

/** Where the in-process forms' requests come from (the admin API answers only loopback callers). */
const IN_PROCESS = { remoteAddress: "127.0.0.1" } as const;

/**
 * Creates an emulator of both APIs without a socket: `emulator.fetch` answers its requests. Throws a
 * TypeError naming the option when an option is invalid (the message never holds a secret); the
 * server options (`port`, `host`, timeouts) are not used.
 */
export function createEmulator(options: EmulatorOptions = {}): InProcessEmulator {
  return assemble(options).emulator;
}

/** Builds the model of an emulator: its state, its JavaScript API and the context of its handler. */
function assemble(options: EmulatorOptions): {
  emulator: InProcessEmulator;
  ctx: ServerContext;
} {
  const logsToken = options.logsToken ?? randomToken("emu_");
  const accounts: EmulatorAccount[] =
    options.accounts && options.accounts.length > 0
      ? options.accounts.map((a) => ({ ...a }))
      : [{ email: "dev@example.com", apiKey: randomToken("") }];
  checkCredentials(logsToken, options.accounts ?? []);
  const cors = checkCorsSetting(options.corsOrigin);
  const adminAccess = checkAdminAccess(options.adminHosts, options.adminOrigins);
  const first = accounts[0] as EmulatorAccount;
  const limitProblem = rateLimitProblem(options);
  if (limitProblem) throw new TypeError(limitProblem);
  if (options.clock !== undefined && typeof options.clock !== "function") {
    throw new TypeError("clock: must be a function returning Unix milliseconds");
  }
  if (options.idSeed !== undefined && !Number.isSafeInteger(options.idSeed)) {
    throw new TypeError("idSeed: must be an integer");
  }
  const seed = options.seed ?? 1;
  const entropy = createEntropy(options.clock, options.idSeed);
  const rateLimits = new RateLimits(
    { burstLimit: options.burstLimit, dailyQuota: options.dailyQuota },
    entropy.now,
  );
  const auth = new Auth(logsToken, accounts);

  const store = new LogsStore();
  const base = store.append(
    generateLogs(options.seedLogs ?? 0, seed, options.logsEndTime ?? entropy.now()),
  );
  const baseCount = base.length;
  const management = new ManagementState(accounts, entropy);
  const scenarios = new Scenarios(
    entropy.now,
    { burst: options.burstLimit ?? 100, daily: options.dailyQuota ?? 1_000 },
    (id) => management.dropDatabase(id),
  );
  if (
    options.logsField !== undefined &&
    options.logsField !== "events" &&
    options.logsField !== "logs"
  ) {
    throw new TypeError('logsField: must be "events" or "logs"');
  }
  const faults = new Faults();
  const requests = new RequestLog();
  if (options.onRequest) requests.listen(options.onRequest);
  let simulated = 0;

  const toEntry = (e: StoredEntry): LogEntry => entryObject(e) as LogEntry;
  const logs: EmulatorLogs = {
    append(entries) {
      const problem = entriesProblem(entries);
      if (problem) throw new TypeError(problem);
      const now = entropy.now();
      const stored = store.append(
        entries.map((e, i) =>
          fromObject(e, { time: now, messageId: `msg_appended_${store.sequence + i}` }),
        ),
      );
      return stored.map(toEntry);
    },
    simulateMessage(opts = {}) {
      const problem = simulateProblem(opts);
      if (problem) throw new TypeError(problem);
      const stored = store.append(simulateEntries(opts, seed * 7919 + ++simulated));
      return { messageId: stored[0]?.messageId ?? "", entries: stored.map(toEntry) };
    },
    message: (id) => store.message(id).map(toEntry),
    get size() {
      return store.size;
    },
  };

  const emulator: InProcessEmulator = {
    async fetch(input, init) {
      const request = new Request(input, init);
      try {
        return await handleFetch(ctx, request, IN_PROCESS);
      } catch (e) {
        if (e instanceof ConnectionReset) throw new TypeError("fetch failed", { cause: e });
        throw e;
      }
    },
    logs,
    accounts,
    credentials: { logsToken, email: first.email, apiKey: first.apiKey },
    faults: {
      add: (rule: FaultRule) => faults.add(rule),
      clear: () => faults.clear(),
      get size() {
        return faults.size;
      },
    },
    get rateLimits() {
      return rateLimits.totals;
    },
    requests: () => requests.list(),
    scenario: (name, opts) => scenarios.start(name, opts),
    reset() {
      scenarios.clear();
      faults.clear();
      rateLimits.reset();
      requests.clear();
      management.reset();
      store.load(base, store.sequence);
    },
    snapshot(): EmulatorSnapshot {
      const appended = store
        .all()
        .filter((e) => e.seq > baseCount)
        .map((e) => ({ ...toEntry(e), seq: e.seq }));
      return {
        version: 1,
        management: management.snapshot(),
        logs: { nextSeq: store.sequence, appended },
      };
    },
    restore(snap: EmulatorSnapshot) {
      const problem = snapshotProblem(snap);
      if (problem) throw new TypeError(problem);
      const appended = (snap.logs?.appended ?? []).map((o) => {
        const { seq, ...rest } = o;
        return {
          ...fromObject(rest, { time: entropy.now(), messageId: `msg_restored_${seq}` }),
          seq,
        };
      });
      management.restore(snap.management);
      store.load([...base, ...appended], snap.logs?.nextSeq ?? 0);
    },
  };

  const admin = createAdmin({
    faults: emulator.faults,
    reset: () => emulator.reset(),
    snapshot: () => emulator.snapshot(),
    requests: () => requests.list(),
    rateLimits: () => rateLimits.totals,
    scenarios: {
      start: (name, opts) => void scenarios.start(name as ScenarioName, opts as ScenarioOptions),
      clear: () => scenarios.clear(),
      running: () => scenarios.running,
    },
    restore: (s: never) => emulator.restore(s),
    logs: {
      append: (entries) => logs.append(entries as LogEntryInput[]),
      simulateMessage: (opts) => logs.simulateMessage(opts as SimulateMessageOptions),
      get size() {
        return store.size;
      },
    },
  });

  const ctx: ServerContext = {
    router: router(),
    faults,
    auth: () => auth,
    logs: store,
    management,
    rateLimits,
    admin,
    cors,
    adminAccess,
    requests,
    scenarios,
    logsField: options.logsField ?? "events",
  };
  return { emulator, ctx };
}

/**
 * Starts an emulator of both APIs and resolves once it listens. Rejects with a TypeError naming the
 * option when an option is invalid (an account without API key, say); the message never holds a secret.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? "127.0.0.1";
  const { emulator, ctx } = assemble(options);
  const handle = (request: Request, conn: { remoteAddress: string }): Promise<Response> =>
    handleFetch(ctx, request, conn);
  const { port, close } = await listen(handle, {
    host,
    port: options.port ?? 0,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 5_000,
  });
  const urlHost = host.includes(":") ? `[${host}]` : host;

  return {
    ...emulator,
    url: `http://${urlHost}:${port}`,
    port,
    get rateLimits() {
      return emulator.rateLimits;
    },
    close,
  };
}
