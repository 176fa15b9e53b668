// The command tree (commander): global options, `logs`, `db`, `teams`, `vector` and `call`.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { Argument, Command, Option } from "commander";
import { commandPath, usageLine } from "./command-path.js";
import { fills } from "./fields.js";
import type { ListLogsParams } from "@api-clients/logs-client";
import { callOperation, operationHelp } from "./call.js";
import { Context, UsageError, type GlobalOptions, type Io } from "./context.js";
import { DEFAULT_CSV_COLUMNS, exportFormat, exportLogs } from "./logs/export.js";
import { addFilterOptions, logFilterFlags, readFilters } from "./logs/filters.js";
import { listLogs } from "./logs/list.js";
import { messageHistory } from "./logs/message.js";
import { groupBy, MAX_GROUPS, summarizeLogs } from "./logs/summary.js";
import { commandLine, filterArgs, globalArgs, pinWindow, withoutPassword } from "./logs/window.js";
import { MAX_INTERVAL_SECONDS, tailLogs } from "./logs/tail.js";
import { addManagementCommands } from "./management/commands.js";
import { allOperations, collect, readValue } from "./operations.js";
import { recordCalls } from "./output/trace.js";
import { fitHelp } from "./output/help.js";
import { streamWidth } from "./output/fit.js";
import { readJsonOutput } from "./output/json.js";
import type { RunState } from "./run-state.js";

const VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

const ROOT_HELP = `
Credentials (flags override the environment):
  logs commands        QSTASH_TOKEN, or --token, or --token-file <path>
  db, backups, teams, vector, search, qstash, audit-log
                       UPSTASH_EMAIL and UPSTASH_API_KEY, or --email and --api-key
                       (or --api-key-file <path>)
  call                 whichever its API needs
  Prefer the environment or a file (- reads stdin): flags are visible to other
  users in the process list.
  Credentials are never printed, also not with --verbose.

Base URLs (e.g. an emulator's; default: the services' public URLs):
  logs commands        QSTASH_URL, or --base-url
  the others           UPSTASH_API_URL, or --base-url

Exit codes:
  0    success
  1    the API answered with an error, or the request failed (after retries)
  2    usage error: unknown command or flag, bad value, missing credentials,
       a call that cannot be undone without --yes and no terminal to confirm on
  129  stopped by SIGHUP (terminal closed); an export prints how to resume
  130  interrupted (Ctrl-C); an export prints how to resume
  143  stopped by SIGTERM; an export prints how to resume

Examples:
  api-clients logs list --state FAILED --topic-name orders --from 1h
  api-clients logs message <messageId>
  api-clients logs summary --by state --from 1d
  api-clients logs export --from 1d --out day.ndjson
  api-clients logs tail --state FAILED
  api-clients db list --json
  api-clients db create --name cache --primary-region eu-west-1 --dry-run
  api-clients db delete <id> --yes
  api-clients call getDatabase --param id=<id> --param credentials=hide`;

/** Every long flag a command accepts, its ancestors' included. */
function takenFlags(command: Command): Set<string> {
  const taken = new Set(["--help", "--version"]);
  for (let c: Command | null = command; c; c = c.parent)
    for (const option of c.options) {
      if (option.long) taken.add(option.long);
      if (option.negate && option.long) taken.add(option.long.replace(/^--no-/, "--"));
    }
  return taken;
}

function positiveNumber(raw: string, flag: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`${flag}: expected a positive number, got ${JSON.stringify(raw)}`);
  return n;
}

const LIMIT_HELP = "stop after this many entries (--page-size sets how many each request asks for)";

/** `--limit`: a whole number of entries, at least 1, or undefined when not given. */
const limitOf = (opts: Record<string, unknown>): number | undefined =>
  opts["limit"] === undefined
    ? undefined
    : (readValue({ type: "integer", minimum: 1 }, opts["limit"] as string, "--limit") as number);

/** `--interval` in milliseconds: positive, and at most what a timer can wait (else it fires at once). */
function interval(raw: string): number {
  const seconds = positiveNumber(raw, "--interval");
  if (seconds > MAX_INTERVAL_SECONDS)
    throw new UsageError(
      `--interval: at most ${MAX_INTERVAL_SECONDS} seconds (about 24.8 days), got ${JSON.stringify(raw)}`,
    );
  return seconds * 1000;
}

/** A credential file's content without its final line break; `-` reads stdin to its end. */
async function readSecret(path: string, flag: string, io: Io): Promise<string> {
  let text: string;
  try {
    if (path === "-") {
      text = "";
      for await (const chunk of io.stdin) text += String(chunk);
    } else text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(error as Error).message}`);
  }
  const secret = text.replace(/\r?\n$/, "");
  if (secret === "" || /[\r\n]/.test(secret))
    throw new UsageError(`${flag}: ${path} must hold the credential on one line`);
  return secret;
}

/** `--token-file` and `--api-key-file` into `--token` and `--api-key` (never both forms). */
async function readCredentialFiles(options: GlobalOptions, io: Io): Promise<void> {
  if (options.tokenFile === "-" && options.apiKeyFile === "-")
    throw new UsageError("--token-file, --api-key-file: only one of them can read stdin");
  for (const [file, value, flag] of [
    ["tokenFile", "token", "--token"],
    ["apiKeyFile", "apiKey", "--api-key"],
  ] as const) {
    const path = options[file];
    if (path === undefined) continue;
    if (options[value] !== undefined)
      throw new UsageError(`${flag}-file: give ${flag} or ${flag}-file, not both`);
    options[value] = await readSecret(path, `${flag}-file`, io);
  }
}

/** Builds the program; actions run with the {@link Context} made from the global options. */
export function buildProgram(state: RunState): Command {
  const { io } = state;
  const program = new Command("api-clients")
    .description("The message logs and account management APIs from a terminal.")
    .version(VERSION, "--version", "print the version")
    .helpOption("-h, --help", "show help")
    .option("--token <token>", "logs API token (default: $QSTASH_TOKEN)")
    .option("--token-file <path>", "read the logs API token from a file (- for stdin)")
    .option("--email <email>", "account e-mail for the management API (default: $UPSTASH_EMAIL)")
    .option("--api-key <key>", "management API key (default: $UPSTASH_API_KEY)")
    .option("--api-key-file <path>", "read the management API key from a file (- for stdin)")
    .option(
      "--base-url <url>",
      "base URL of the API, e.g. an emulator's http://127.0.0.1:8787 (default: $QSTASH_URL or $UPSTASH_API_URL)",
    )
    .option("--max-retries <n>", "retries after a failed attempt (default: 2)")
    .option("--timeout <ms>", "limit for each attempt, milliseconds (default: 30000)")
    .option(
      "--verbose",
      "print each request, response and retry as JSON on stderr, and stack traces",
    )
    .option("--trace", "when the command ends, draw the calls it made on stderr (a waterfall)")
    .option("--wide", "never cut table cells to the terminal's width (ids are never cut anyway)")
    .option("--no-color", "no colours (also: NO_COLOR=1)")
    // ── output for scripts and the pager (src/output/json.ts, src/output/pager.ts) ──
    .option("--jq <expr>", "filter the JSON output with this jq program (implies --json)")
    .option("--no-pager", "never page long output (default pager: $PAGER, else less -FRX)")
    .showSuggestionAfterError(true)
    .exitOverride()
    // ── output that fits (src/output/help.ts) ──
    .configureHelp({ helpWidth: streamWidth(io, "stdout") ?? 80 })
    .configureOutput({
      writeOut: (text) => io.stdout.write(fitHelp(text, streamWidth(io, "stdout"))),
      writeErr: (text) => io.stderr.write(text),
      // A mistyped flag's value is never printed back: it may be a credential (`--tokn=<secret>`).
      outputError: (text, write) =>
        write(
          text.replace(/^error: /, "api-clients: ").replace(/'(--?[^'=\s]+)=[^']*'/g, "'$1=…'"),
        ),
    })
    .addHelpText("after", ROOT_HELP);

  program.hook("preAction", async (_program, action) => {
    state.command = action;
    const options = program.opts<GlobalOptions>();
    await readCredentialFiles(options, io);
    state.context = new Context(
      io,
      { ...options, ...readJsonOutput(action, options.jq) },
      state.signal,
    );
    if (program.opts<GlobalOptions>().trace) state.trace ??= recordCalls();
  });
  const ctx = (): Context => state.context as Context;

  // ── logs ────────────────────────────────────────────────────────────────────────────────────────
  const logs = program
    .command("logs")
    .description("list, export and follow the delivery log (GET /v2/logs)")
    .addHelpText(
      "after",
      "\nFilters are the API's query parameters as flags (from the spec); dates take an ISO date,\nUnix milliseconds or a time ago (15m, 2h, 7d). Run `api-clients logs list --help` for the list.",
    );

  const list = logs
    .command("list")
    .description("one page of log entries as a table, newest first")
    .option(
      "--json [fields]",
      "print the page as JSON ({ events, cursor }) instead of a table; with fields (--json messageId,state), only the entries with those fields",
    )
    .option("--limit <n>", `${LIMIT_HELP}; pages on until it has them`);
  const listFlags = logFilterFlags([], takenFlags(list));
  addFilterOptions(list, listFlags);
  list.action(async (opts: Record<string, unknown>) => {
    const params = readFilters(opts, listFlags, Date.now(), (m) => ctx().err(m)) as ListLogsParams;
    await listLogs(ctx(), params, opts["json"] === true, limitOf(opts));
  });

  logs
    .command("message")
    .description(
      "one message's history: every state oldest first, the time between states, each attempt's status and error",
    )
    .addArgument(fills(new Argument("<messageId>", "the message id (msg_…)"), ["messageId"]))
    .option(
      "--json [fields]",
      "print { messageId, states, entries } as JSON, oldest first; with fields (--json state,time), only the entries with those fields",
    )
    .action(async (messageId: string, opts: Record<string, unknown>) => {
      await messageHistory(ctx(), messageId, opts["json"] === true);
    });

  const summary = logs
    .command("summary")
    .description(
      "counts over a window by state, url, topic or message: a bar chart per group and failures per hour",
    )
    .option("--by <field>", "state, url, topic or message", "state")
    .option("--json", "print the counts as JSON");
  const summaryFlags = logFilterFlags(["cursor", "order"], takenFlags(summary));
  addFilterOptions(summary, summaryFlags);
  summary.addHelpText(
    "after",
    `\nIt reads every entry of the window (fixed at the start: without --to it ends then) and counts\nthe first ${MAX_GROUPS.toLocaleString("en-US")} distinct groups by name, every later one under "other".`,
  );
  summary.action(async (opts: Record<string, unknown>) => {
    const by = groupBy(opts["by"] as string);
    const now = Date.now();
    const params = pinWindow(
      readFilters(opts, summaryFlags, now, (m) => ctx().err(m)) as ListLogsParams,
      now,
    );
    await summarizeLogs(ctx(), params, { by, json: opts["json"] === true });
  });

  const exporter = logs
    .command("export")
    .description("every matching entry to NDJSON or CSV, page by page, with progress on stderr")
    .addOption(
      new Option(
        "--format <format>",
        "ndjson or csv (default: csv when --out ends in .csv, else ndjson)",
      ),
    )
    .option("-o, --out <file>", "write to this file instead of stdout")
    .option(
      "--append",
      "append to --out instead of replacing it (to resume; CSV then writes no second header)",
    )
    .option(
      "--at-byte <bytes>",
      "with --append: first cut --out back to this size (what the printed resume command gives)",
    )
    .option(
      "--columns <names>",
      `CSV columns, comma-separated (default: ${DEFAULT_CSV_COLUMNS.join(",")})`,
    )
    .option("--limit <n>", LIMIT_HELP)
    .option("--no-progress", "no progress line on stderr")
    .option(
      "--redis-url <url>",
      "share the account's rate limit with other exports through this Redis (redis://host:port)",
    );
  const exportFlags = logFilterFlags([], takenFlags(exporter));
  addFilterOptions(exporter, exportFlags);
  exporter.addHelpText(
    "after",
    "\nThe window is fixed when the export starts: a time ago (--from 1h) is resolved once, and\nwithout --to it ends at that moment. On Ctrl-C or a failure it prints the command that\nresumes it: the same window as Unix ms (--from <ms> --to <ms>), --cursor <cursor>, and\n--append to continue the same --out file. The two runs then hold every entry of the\nwindow once, however many arrived in between.",
  );
  exporter.action(async (opts: Record<string, unknown>) => {
    const out = opts["out"] as string | undefined;
    if (opts["append"] === true && out === undefined)
      throw new UsageError("--append: needs --out <file>");
    const atByte =
      opts["atByte"] === undefined
        ? undefined
        : (readValue(
            { type: "integer", minimum: 0 },
            opts["atByte"] as string,
            "--at-byte",
          ) as number);
    if (atByte !== undefined && opts["append"] !== true)
      throw new UsageError("--at-byte: needs --append");
    const columns =
      typeof opts["columns"] === "string"
        ? opts["columns"]
            .split(",")
            .map((c) => c.trim())
            .filter(Boolean)
        : [...DEFAULT_CSV_COLUMNS];
    if (columns.length === 0) throw new UsageError("--columns: name at least one column");
    // A column is an entry's own field, never a member every object has (`constructor`, `__proto__`).
    const inherited = columns.find((c) => c in Object.prototype);
    if (inherited !== undefined)
      throw new UsageError(`--columns: ${JSON.stringify(inherited)} is not a field of an entry`);
    // The window is fixed once: relative bounds resolved and the end pinned to now, so that the
    // printed resume command reads the rest of exactly this window.
    const now = Date.now();
    const params = pinWindow(
      readFilters(opts, exportFlags, now, (m) => ctx().err(m)) as ListLogsParams,
      now,
    );
    const resumeCommand = (cursor: string, limit: number | undefined, bytes: number | undefined) =>
      commandLine([
        "api-clients",
        "logs",
        "export",
        ...globalArgs(ctx().options),
        ...filterArgs({ ...params, cursor }, exportFlags),
        ...(out === undefined ? [] : ["--out", out, "--append"]),
        ...(bytes === undefined ? [] : ["--at-byte", String(bytes)]),
        ...(typeof opts["format"] === "string" ? ["--format", opts["format"]] : []),
        ...(typeof opts["columns"] === "string" ? ["--columns", opts["columns"]] : []),
        ...(limit === undefined ? [] : ["--limit", String(limit)]),
        ...(opts["progress"] === false ? ["--no-progress"] : []),
        ...(typeof opts["redisUrl"] === "string"
          ? ["--redis-url", withoutPassword(opts["redisUrl"])]
          : []),
      ]);
    await exportLogs(ctx(), params, {
      resumeCommand,
      format: exportFormat(opts["format"] as string | undefined, out),
      out,
      append: opts["append"] === true,
      atByte,
      columns,
      progress: opts["progress"] !== false,
      redisUrl: opts["redisUrl"] as string | undefined,
      limit: limitOf(opts),
    });
  });

  const tail = logs
    .command("tail")
    .description("follow new entries as they arrive, until Ctrl-C")
    .option("--json", "one JSON entry per line (NDJSON) instead of a table")
    .option("--interval <seconds>", "time between polls, seconds", "2")
    .option("-n, --lines <n>", "how many of the newest existing entries to show first", "10")
    .option("--limit <n>", "exit after showing this many entries (the first --lines included)");
  const tailFlags = logFilterFlags(["cursor", "order"], takenFlags(tail));
  addFilterOptions(tail, tailFlags);
  tail.action(async (opts: Record<string, unknown>) => {
    const params = readFilters(opts, tailFlags, Date.now(), (m) => ctx().err(m)) as ListLogsParams;
    await tailLogs(ctx(), params, {
      json: opts["json"] === true,
      intervalMs: interval(opts["interval"] as string),
      lines: readValue(
        { type: "integer", minimum: 0 },
        opts["lines"] as string,
        "--lines",
      ) as number,
      limit: limitOf(opts),
    });
  });

  // ── management ──────────────────────────────────────────────────────────────────────────────────
  addManagementCommands(program, ctx, takenFlags);

  // ── call ────────────────────────────────────────────────────────────────────────────────────────
  const call = program
    .command("call")
    .description(
      "any operation of either API by its operationId (`api-clients call --help` lists them)",
    )
    .addHelpText(
      "after",
      "\nEach operation has its own help: api-clients call <operationId> --help\nThe result is printed as JSON.",
    );
  for (const op of allOperations()) {
    const command = call.command(op.id);
    if (op.irreversible)
      command.option(
        "-y, --yes",
        "send without asking: it cannot be undone (needed without a terminal)",
      );
    command
      .description(`${op.method} ${op.path}: ${op.summary}`)
      .addOption(
        fills(
          new Option(
            "-p, --param <name=value>",
            "a path or query parameter (repeat for several; see below)",
          ).argParser(collect),
          op.inputs.filter((i) => i.in !== "body").map((i) => i.name),
          (name) => `--param ${name}`,
        ),
      )
      .option("--body <json>", "the JSON request body: inline, @file, or @- for stdin")
      .option("--dry-run", "print the request that would be sent, and send nothing")
      .addHelpText("after", operationHelp(op))
      .action(
        async (opts: { param?: string[]; body?: string; dryRun?: boolean; yes?: boolean }) => {
          await callOperation(ctx(), op, opts);
        },
      );
  }

  for (const command of walk(program)) {
    command.showHelpAfterError(
      `${usageLine(command)}\nRun "${commandPath(command)} --help" for details.`,
    );
  }
  return program;
}

function* walk(command: Command): Generator<Command> {
  yield command;
  for (const sub of command.commands) yield* walk(sub);
}
