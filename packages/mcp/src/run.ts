// Runs the server the command line asks for: stdio (default) or Streamable HTTP, on the clients
// configured from the environment, or on an in-process emulator with seeded data (`--emulator`).
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { Backend } from "./internal/backend.js";
import { RedisUsedTokens, type RedisSetter, type UsedTokens } from "./internal/confirm.js";
import { createServer, createShared, type ServerSettings } from "./internal/server.js";
import { HELP, parseOptions, UsageError, type CliOptions } from "./options.js";

/** The streams and environment of a run (the process's by default). */
export interface RunIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Readonly<Record<string, string | undefined>>;
}

/** The server settings of the command line's options. */
export function settingsOf(options: CliOptions): ServerSettings {
  return {
    allowWrites: options.allowWrites,
    ...(options.toolsets === undefined ? {} : { toolsets: options.toolsets }),
    tools: options.tools,
    maxResultBytes: options.maxResultBytes,
    revealSecrets: options.revealSecrets,
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
  };
}

/** Starts the emulator of `--emulator`, with logs and one database to look at. */
async function startSeededEmulator(io: RunIo) {
  const { startEmulator } = await import("@api-clients/emulator");
  const emulator = await startEmulator({ port: 0, seedLogs: 2_000 });
  const { createManagementClient } = await import("@api-clients/management-client");
  const m = createManagementClient({
    email: emulator.credentials.email,
    apiKey: emulator.credentials.apiKey,
    baseUrl: emulator.url,
    allowInsecureHttp: true,
  });
  await m.request("createDatabase", {
    body: { database_name: "demo-cache", primary_region: "us-east-1", platform: "aws" },
  } as never);
  io.stderr.write(
    `api-clients-mcp: serving an in-process emulator at ${emulator.url} (2,000 log entries, one database)\n`,
  );
  return emulator;
}

/**
 * The rate limiter of `--redis-url`, shared by both clients (an optional add-on, installed beside
 * this package only by those who use it); `null` after saying why it cannot be made.
 */
async function redisLimiter(url: string, io: RunIo) {
  const addOn = await import("@api-clients/rate-limit-redis").catch(() => undefined);
  if (addOn === undefined) {
    io.stderr.write(
      "api-clients-mcp: --redis-url needs @api-clients/rate-limit-redis: npm install @api-clients/rate-limit-redis\n",
    );
    return null;
  }
  try {
    return addOn.createRedisRateLimiter({ url });
  } catch (error) {
    io.stderr.write(
      `api-clients-mcp: --redis-url: ${(error as Error).message.replace(/^url: /, "")}\n`,
    );
    return null;
  }
}

/**
 * The used-token record of `--redis-url` (ioredis, installed with @api-clients/rate-limit-redis);
 * `null` after saying why it cannot be made.
 */
async function redisUsedTokens(url: string, io: RunIo): Promise<UsedTokens | null> {
  const ioredis = await import("ioredis").catch(() => undefined);
  if (ioredis === undefined) {
    io.stderr.write(
      "api-clients-mcp: --redis-url needs ioredis beside this package: npm install ioredis\n",
    );
    return null;
  }
  // Commands fail fast while Redis is unreachable: a token is then refused, never accepted twice.
  const redis = new ioredis.Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2_000,
  });
  redis.on("error", () => undefined);
  redis.connect().catch(() => undefined);
  return new RedisUsedTokens(redis as unknown as RedisSetter);
}

/** Runs `api-clients-mcp` with `argv`; resolves to the exit code once the server stops. */
export async function run(argv: readonly string[], io: RunIo): Promise<number> {
  let options: CliOptions;
  try {
    options = parseOptions(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`api-clients-mcp: ${error.message}\n\n${HELP}`);
    return 2;
  }
  if (options.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const rateLimiter =
    options.redisUrl === undefined ? undefined : await redisLimiter(options.redisUrl, io);
  if (rateLimiter === null) return 2;
  const emulator = options.emulator ? await startSeededEmulator(io) : undefined;
  const baseUrl = emulator?.url ?? options.baseUrl;
  const common = {
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(rateLimiter === undefined ? {} : { rateLimiter }),
  };
  const backend = new Backend({
    env: io.env,
    logs: { ...common, ...(emulator ? { token: emulator.credentials.logsToken } : {}) },
    management: {
      ...common,
      ...(emulator
        ? { email: emulator.credentials.email, apiKey: emulator.credentials.apiKey }
        : {}),
    },
  });
  const usedTokens =
    options.redisUrl === undefined ? undefined : await redisUsedTokens(options.redisUrl, io);
  if (usedTokens === null) {
    await emulator?.close();
    await rateLimiter?.close();
    return 2;
  }
  const shared = createShared(backend, {
    ...(options.confirmSecret === undefined ? {} : { confirmSecret: options.confirmSecret }),
    ...(usedTokens === undefined ? {} : { usedTokens }),
  });
  const closeAll = async () => {
    await emulator?.close();
    await rateLimiter?.close();
    await shared.confirmations.close();
  };
  const settings = settingsOf(options);
  if (options.http) {
    const { serveHttp } = await import("./internal/http.js");
    const token = options.httpToken;
    const served = await serveHttp(shared, settings, {
      host: options.host,
      port: options.port,
      ...(token === undefined ? {} : { token }),
      allowedOrigins: options.allowedOrigins,
      maxBodyBytes: options.maxBodyBytes,
    }).catch((error: Error) => {
      io.stderr.write(`api-clients-mcp: ${error.message}\n`);
      return undefined;
    });
    if (served === undefined) {
      await closeAll();
      return 1;
    }
    io.stderr.write(`api-clients-mcp: listening on ${served.url}\n`);
    await served.closed;
    await closeAll();
    return 0;
  }
  const server = createServer(shared, settings);
  const transport = new StdioServerTransport(
    io.stdin as NodeJS.ReadStream,
    io.stdout as NodeJS.WriteStream,
  );
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    io.stdin.once("end", () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
  await closeAll();
  return 0;
}
