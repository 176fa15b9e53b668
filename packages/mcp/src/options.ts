// `api-clients-mcp`'s command line read into one options value (flag errors raised here, before
// anything starts), and its help text.
import { parseArgs } from "node:util";
import { DEFAULT_MAX_RESULT_BYTES } from "./internal/bounds.js";
import { MIN_CONFIRM_SECRET_LENGTH } from "./internal/confirm.js";
import { TOOLSETS } from "./internal/server.js";

/** The help text of `api-clients-mcp --help`. */
export const HELP = `Usage: api-clients-mcp [options]

Serves the message logs API and the account management API as MCP tools (stdio by default).

Options:
  --allow-writes            list and allow the tools that change something (default: read-only)
  --toolsets LIST           comma-separated toolsets (default: all): ${TOOLSETS.join(", ")}
  --tools all|dynamic       one tool per operation, or three tools that list, describe and call
                            operations (default: all)
  --max-result-bytes N      bound on every result's text, bytes (default: ${DEFAULT_MAX_RESULT_BYTES})
  --reveal-secrets          show secret fields (passwords, tokens) in results (default: masked)
  --deadline-ms N           bound on each call, retries included, milliseconds
  --base-url URL            send every request to URL (e.g. an emulator)
  --redis-url URL           share the rate-limit budget with the other instances through Redis
                            (needs @api-clients/rate-limit-redis installed beside this package)
  --http                    serve Streamable HTTP (stateless) instead of stdio
  --port N                  HTTP port (default: 8787; 0 picks a free one)
  --host HOST               HTTP interface (default: 127.0.0.1)
  --http-token TOKEN        bearer token HTTP clients must send (or MCP_HTTP_TOKEN); required
                            when --host is not a loopback address
  --allowed-origin ORIGIN   an Origin allowed besides loopback ones (repeatable)
  --max-body-bytes N        largest HTTP request body accepted, bytes; larger ones get 413
                            (default: 1048576)
  --confirm-secret SECRET   key of the confirmation tokens (or MCP_CONFIRM_SECRET), at least 32
                            characters; instances behind one load balancer need the same one
                            (default: a random key of this process)
  --emulator                serve tools backed by an in-process emulator with seeded data
  --help                    show this text

Credentials: QSTASH_TOKEN (logs), UPSTASH_EMAIL and UPSTASH_API_KEY (management).
`;

/** A mistake on the command line: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** What the command line asks for. */
export interface CliOptions {
  help: boolean;
  allowWrites: boolean;
  toolsets: string[] | undefined;
  tools: "all" | "dynamic";
  maxResultBytes: number;
  revealSecrets: boolean;
  deadlineMs: number | undefined;
  baseUrl: string | undefined;
  redisUrl: string | undefined;
  http: boolean;
  port: number;
  host: string;
  httpToken: string | undefined;
  allowedOrigins: string[];
  maxBodyBytes: number;
  confirmSecret: string | undefined;
  emulator: boolean;
}

const integer = (flag: string, raw: string | undefined, min: number): number | undefined => {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min)
    throw new UsageError(`--${flag}: expected an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return value;
};

/** Reads `argv` (without the node and script paths) and the environment into {@link CliOptions}. */
export function parseOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        "allow-writes": { type: "boolean" },
        toolsets: { type: "string" },
        tools: { type: "string" },
        "max-result-bytes": { type: "string" },
        "reveal-secrets": { type: "boolean" },
        "deadline-ms": { type: "string" },
        "base-url": { type: "string" },
        "redis-url": { type: "string" },
        http: { type: "boolean" },
        port: { type: "string" },
        host: { type: "string" },
        "http-token": { type: "string" },
        "allowed-origin": { type: "string", multiple: true },
        "max-body-bytes": { type: "string" },
        "confirm-secret": { type: "string" },
        emulator: { type: "boolean" },
        help: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // Node's message quotes the argument; a mistyped `--http-token=…` must not echo its value.
    throw new UsageError((error as Error).message.replace(/=.*?'/, "=…'"));
  }
  const toolsets = values.toolsets
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const t of toolsets ?? [])
    if (!TOOLSETS.includes(t))
      throw new UsageError(
        `--toolsets: unknown toolset ${JSON.stringify(t)}; known: ${TOOLSETS.join(", ")}`,
      );
  const tools = values.tools ?? "all";
  if (tools !== "all" && tools !== "dynamic")
    throw new UsageError(`--tools: expected all or dynamic, got ${JSON.stringify(tools)}`);
  const options: CliOptions = {
    help: values.help === true,
    allowWrites: values["allow-writes"] === true,
    toolsets,
    tools,
    maxResultBytes:
      integer("max-result-bytes", values["max-result-bytes"], 1024) ?? DEFAULT_MAX_RESULT_BYTES,
    revealSecrets: values["reveal-secrets"] === true,
    deadlineMs: integer("deadline-ms", values["deadline-ms"], 1),
    baseUrl: values["base-url"],
    redisUrl: values["redis-url"],
    http: values.http === true,
    port: integer("port", values.port, 0) ?? 8787,
    host: values.host ?? "127.0.0.1",
    httpToken: values["http-token"] ?? (env["MCP_HTTP_TOKEN"] || undefined),
    allowedOrigins: values["allowed-origin"] ?? [],
    maxBodyBytes: integer("max-body-bytes", values["max-body-bytes"], 1024) ?? 1_048_576,
    confirmSecret: values["confirm-secret"] ?? (env["MCP_CONFIRM_SECRET"] || undefined),
    emulator: values.emulator === true,
  };
  if (
    options.confirmSecret !== undefined &&
    options.confirmSecret.length < MIN_CONFIRM_SECRET_LENGTH
  )
    throw new UsageError(
      `--confirm-secret (or MCP_CONFIRM_SECRET): at least ${MIN_CONFIRM_SECRET_LENGTH} characters (e.g. openssl rand -base64 32)`,
    );
  if (options.port > 65535) throw new UsageError(`--port: at most 65535`);
  return options;
}
