// The options every command accepts, the root help, and the credential files read before a command
// runs. The global options are declared in GLOBAL_FLAGS only: add one there.
import { readFile } from "node:fs/promises";
import { longFlag, type FlagSpec } from "./command.js";
import { UsageError, type GlobalOptions, type Io } from "./context.js";

// ── global options ──────────────────────────────────────────────────────────────────────────────
export const GLOBAL_FLAGS: readonly FlagSpec[] = [
  { flags: "--token <token>", description: "logs API token (default: $QSTASH_TOKEN)" },
  {
    flags: "--token-file <path>",
    description: "read the logs API token from a file (- for stdin)",
  },
  {
    flags: "--email <email>",
    description: "account e-mail for the management API (default: $UPSTASH_EMAIL)",
  },
  { flags: "--api-key <key>", description: "management API key (default: $UPSTASH_API_KEY)" },
  {
    flags: "--api-key-file <path>",
    description: "read the management API key from a file (- for stdin)",
  },
  {
    flags: "--base-url <url>",
    description:
      "base URL of the API, e.g. an emulator's http://127.0.0.1:8787 (default: $QSTASH_URL or $UPSTASH_API_URL)",
  },
  { flags: "--max-retries <n>", description: "retries after a failed attempt (default: 2)" },
  { flags: "--timeout <ms>", description: "limit for each attempt, milliseconds (default: 30000)" },
  {
    flags: "--verbose",
    description: "print each request, response and retry as JSON on stderr, and stack traces",
  },
  {
    flags: "--trace",
    description: "when the command ends, draw the calls it made on stderr (a waterfall)",
  },
  {
    flags: "--wide",
    description: "never cut table cells to the terminal's width (ids are never cut anyway)",
  },
  { flags: "--no-color", description: "no colours (also: NO_COLOR=1)" },
  // Output for scripts and the pager (src/output/json.ts, src/output/pager.ts).
  {
    flags: "--jq <expr>",
    description: "filter the JSON output with this jq program (implies --json)",
  },
  {
    flags: "--no-pager",
    description: "never page long output (default pager: $PAGER, else less -FRX)",
  },
];
// ── end of global options ───────────────────────────────────────────────────────────────────────

/** Every long flag taken by the program itself: the global options, help and version. */
export const GLOBAL_LONG_FLAGS: ReadonlySet<string> = new Set([
  "--help",
  "--version",
  ...GLOBAL_FLAGS.map(longFlag),
  "--color",
  "--pager",
]);

export const ROOT_HELP = `
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

Shell completion: api-clients completion bash|zsh|fish (see the README).

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

/** The global options with `--token-file` and `--api-key-file` read into `--token` and `--api-key`. */
export async function readGlobals(given: GlobalOptions, io: Io): Promise<GlobalOptions> {
  const options = { ...given };
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
  return options;
}
