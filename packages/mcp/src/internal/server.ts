// One MCP server: the tools of the generated table chosen by toolset and write permission, each with
// its four annotations; every call sent through the clients, every destructive one confirmed by a
// person first, every result bounded and redacted.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolRequest,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
import { toolSpecs } from "../generated/tools.js";
import { Backend, type CallInput } from "./backend.js";
import {
  DEFAULT_MAX_RESULT_BYTES,
  decodeCursor,
  encodeCursor,
  fitList,
  fitPage,
  select,
} from "./bounds.js";
import { ConfirmationTokens, type UsedTokens } from "./confirm.js";
import { errorText } from "./errors.js";
import { maskSecretFields } from "./redact.js";
import { TASKS, type Task } from "./tasks.js";
import { withTraceContext } from "./trace-context.js";
import type { JsonSchema, ToolSpec } from "./tool-spec.js";
import { VERSION } from "../version.js";

/** The toolsets, from the specs' tags. */
export const TOOLSETS: readonly string[] = [...new Set(toolSpecs.map((t) => t.toolset))];

/** How the server chooses and shapes its tools and results. */
export interface ServerSettings {
  /**
   * List and allow the tools that change something (every method but GET).
   * @default false
   */
  allowWrites?: boolean;
  /**
   * Which toolsets to serve (`logs`, `databases`, `backups`, `teams`, `vector`, `search`, `qstash`, `audit`).
   * @default every toolset
   */
  toolsets?: readonly string[];
  /**
   * `all`: one tool per operation; `dynamic`: three tools that list, describe and call the operations.
   * @default "all"
   */
  tools?: "all" | "dynamic";
  /**
   * Bound on the text of every result, bytes (UTF-8).
   * @default 24000
   */
  maxResultBytes?: number;
  /**
   * Show secret fields (database passwords, REST and QStash tokens) in results.
   * @default false
   */
  revealSecrets?: boolean;
  /**
   * Bound on each call, retries and waits included, milliseconds (the clients' `deadlineMs`).
   * @default the clients' (120000)
   */
  deadlineMs?: number;
}

/** Whether a tool only reads. */
const readsOnly = (spec: ToolSpec) => spec.method === "GET" || spec.method === "HEAD";

/** The four annotations of a tool, from its spec row: never left to the protocol's defaults. */
export function annotationsOf(spec: ToolSpec): ToolAnnotations {
  const readOnly = readsOnly(spec);
  return {
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && spec.irreversible,
    idempotentHint: spec.idempotent,
    // Every tool reaches a remote service, and results carry text written by others (log entries
    // hold response bodies of arbitrary endpoints).
    openWorldHint: true,
  };
}

/** Whether a tool pages through a service cursor (its spec has a `cursor` query parameter). */
const pagedByService = (spec: ToolSpec) =>
  spec.inputs.some((p) => p.name === "cursor" && p.in === "query");

/** The tool as `tools/list` shows it: the spec's schema plus the server's own arguments. */
export function toolOf(spec: ToolSpec): Tool {
  const input = spec.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const properties: Record<string, object> = { ...input.properties } as Record<string, object>;
  if (spec.success !== "acknowledgement") {
    // Explained once, in the server's instructions, not in each of 50 tools.
    properties["fields"] = { type: "array", items: { type: "string" } };
  }
  if (spec.success === "array") {
    properties["cursor"] = {
      type: "string",
      description: "nextCursor of the previous result.",
    };
  }
  if (spec.irreversible) {
    properties["confirmation_token"] = {
      type: "string",
      description: "From the preview, once the person confirmed.",
    };
  }
  const tool: Tool = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: {
      type: "object",
      properties,
      ...(input.required ? { required: input.required } : {}),
    },
    annotations: annotationsOf(spec),
  };
  const output = outputSchemaOf(spec);
  if (output !== undefined) tool.outputSchema = output;
  return tool;
}

/**
 * The shape of `structuredContent` of a read tool: the result's, a list wrapped in `items`. Write
 * tools return structured content without declaring it (declared on every tool, `tools/list` was
 * over 64 kB).
 */
function outputSchemaOf(spec: ToolSpec): Tool["outputSchema"] | undefined {
  if (spec.result === undefined || !readsOnly(spec)) return undefined;
  if (spec.success === "array") {
    return {
      type: "object",
      properties: { items: spec.result, nextCursor: { type: "string" } },
    };
  }
  const result = spec.result as { type?: unknown; properties?: Record<string, JsonSchema> };
  if (result.type !== "object") return undefined;
  return { type: "object", properties: { ...result.properties } };
}

/** The tools a server with `settings` serves. */
export function servedTools(settings: ServerSettings): ToolSpec[] {
  const toolsets = settings.toolsets ?? TOOLSETS;
  return toolSpecs.filter(
    (t) => toolsets.includes(t.toolset) && (settings.allowWrites === true || readsOnly(t)),
  );
}

/** A tool result with only a text block (errors, confirmations, declines). */
const textResult = (text: string, isError = false): CallToolResult => ({
  content: [{ type: "text", text }],
  ...(isError ? { isError: true } : {}),
});

/** The process-wide state servers share: the clients and the confirmation tokens. */
export interface Shared {
  readonly backend: Backend;
  readonly confirmations: ConfirmationTokens;
  /** The clock of tokens and task windows, Unix milliseconds. */
  readonly now: () => number;
}

/** How the servers of a process check confirmation tokens, and their clock. */
export interface SharedOptions {
  /**
   * The key of the confirmation tokens' HMAC. Instances behind one load balancer need the same one,
   * so that a token issued by one is accepted by another.
   * @default a random key of this process
   */
  confirmSecret?: string;
  /**
   * Where the used tokens are recorded (each is accepted once across every instance that shares it).
   * @default this process's memory
   */
  usedTokens?: UsedTokens;
  /** The clock, Unix milliseconds. @default Date.now */
  now?: () => number;
}

/** Creates the state servers of one process share. */
export function createShared(backend: Backend, options: SharedOptions = {}): Shared {
  const now = options.now ?? Date.now;
  const confirmations = new ConfirmationTokens({
    now,
    ...(options.confirmSecret === undefined ? {} : { secret: options.confirmSecret }),
    ...(options.usedTokens === undefined ? {} : { used: options.usedTokens }),
  });
  return { backend, confirmations, now };
}

/** The three tools of `--tools dynamic`. */
function dynamicTools(settings: ServerSettings): Tool[] {
  const served = servedTools(settings);
  const writes = served.some((t) => !readsOnly(t));
  return [
    {
      name: "list_operations",
      description:
        "Lists the operations this server can call: name, toolset, title and whether it reads only, changes or destroys. Optional `toolset` filter.",
      inputSchema: {
        type: "object",
        properties: { toolset: { type: "string", enum: [...TOOLSETS] } },
      },
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      name: "describe_operation",
      description: "The description, argument schema and annotations of one operation, by name.",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      name: "call_operation",
      description:
        "Calls one operation by name with its arguments (see describe_operation). Destructive operations ask the person to confirm first.",
      inputSchema: {
        type: "object",
        properties: { name: { type: "string" }, arguments: { type: "object" } },
        required: ["name"],
      },
      annotations: {
        readOnlyHint: !writes,
        destructiveHint: served.some((t) => t.irreversible && !readsOnly(t)),
        idempotentHint: !writes,
        openWorldHint: true,
      },
    },
  ];
}

/**
 * Creates an MCP server (the SDK's `Server`, to connect to a transport) serving the operations of
 * both APIs as tools. `shared` holds the clients and confirmation tokens (one per process).
 */
export function createServer(shared: Shared, settings: ServerSettings = {}): Server {
  return createServerOver(shared, settings, { canElicit: true });
}

/**
 * {@link createServer} for a transport that says whether the server can ask the person: a stateless
 * HTTP server cannot (the client's answer to an elicitation would come as a new POST, to another
 * server instance, and the call would wait for it in vain), so it always confirms in two steps.
 */
export function createServerOver(
  shared: Shared,
  settings: ServerSettings,
  transport: { canElicit: boolean },
): Server {
  const server = new Server(
    { name: "api-clients-mcp", version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        "Tools of the message logs API and the account management API. `fields` (every tool with a JSON result) keeps only those fields of the result, or of each item of a list. A list returns the items that fit with a cursor (`nextCursor`, or `cursor` for logs): pass it back as `cursor` for the rest. A destructive tool answers its first call with a preview and a `confirmation_token`: show the preview to the person and call again with the token only if they confirm.",
    },
  );
  const served = servedTools(settings);
  const byName = new Map(served.map((t) => [t.name, t]));
  const dynamic = settings.tools === "dynamic";

  const tasks = servedTasks(settings);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: dynamic ? dynamicTools(settings) : [...served.map(toolOf), ...tasks.map((t) => t.tool)],
  }));

  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    withTraceContext(request.params._meta, () => handleCall(request, extra)),
  );
  const handleCall = async (
    request: CallToolRequest,
    extra: { signal: AbortSignal },
  ): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const call = (spec: ToolSpec, toolArgs: Record<string, unknown>) =>
      callTool(server, transport.canElicit, shared, settings, spec, toolArgs, extra.signal);
    const task = tasks.find((t) => t.tool.name === (dynamic ? args["name"] : name));
    if (task !== undefined && (!dynamic || name === "call_operation")) {
      const inner = dynamic ? args["arguments"] : args;
      return runTask(
        task,
        shared,
        settings,
        (inner ?? {}) as Record<string, unknown>,
        extra.signal,
      );
    }
    if (dynamic) {
      if (name === "list_operations") {
        const toolset = args["toolset"];
        const rows = served
          .filter((t) => toolset === undefined || t.toolset === toolset)
          .map((t) => ({
            name: t.name,
            toolset: t.toolset,
            title: t.title,
            kind: readsOnly(t) ? "read" : t.irreversible ? "destructive" : "write",
          }));
        if (toolset === undefined || toolset === "logs")
          for (const t of tasks)
            rows.push({
              name: t.tool.name,
              toolset: "logs",
              title: t.tool.title ?? "",
              kind: "read",
            });
        return bounded({ operations: rows }, settings, shared);
      }
      const target = byName.get(String(args["name"]));
      const targetTask = tasks.find((t) => t.tool.name === args["name"]);
      if (name === "describe_operation" && targetTask !== undefined) {
        const { name: taskName, description, inputSchema, annotations } = targetTask.tool;
        return bounded({ name: taskName, description, inputSchema, annotations }, settings, shared);
      }
      if (name === "describe_operation" || name === "call_operation") {
        if (target === undefined) return unknownTool(String(args["name"]), settings);
        if (name === "describe_operation") {
          const tool = toolOf(target);
          return bounded(
            {
              name: tool.name,
              description: tool.description,
              inputSchema: tool.inputSchema,
              annotations: tool.annotations,
            },
            settings,
            shared,
          );
        }
        const inner = args["arguments"];
        return call(
          target,
          inner && typeof inner === "object" ? (inner as Record<string, unknown>) : {},
        );
      }
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    const spec = byName.get(name);
    if (spec === undefined) {
      if (toolSpecs.some((t) => t.name === name)) return unknownTool(name, settings);
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    return call(spec, args);
  };
  return server;
}

/** The task tools served: those of the `logs` toolset. */
function servedTasks(settings: ServerSettings): readonly Task[] {
  return (settings.toolsets ?? TOOLSETS).includes("logs") ? TASKS : [];
}

/** Runs a task tool; its list (entries, URLs) cut to what fits, the count left out said. */
async function runTask(
  task: Task,
  shared: Shared,
  settings: ServerSettings,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallToolResult> {
  try {
    const value = await task.run(shared.backend, args, { signal, now: shared.now });
    const max = settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    const key = Array.isArray(value["entries"]) ? "entries" : "urls";
    const clean = (settings.revealSecrets === true ? value : maskSecretFields(value)) as Record<
      string,
      unknown
    >;
    const fitted = fitList(clean, key, max) ?? { note: `The result is over ${max} bytes.` };
    const text = shared.backend.maskCredentials(JSON.stringify(fitted));
    return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
  } catch (error) {
    return textResult(errorText(error, shared.backend.maskCredentials), true);
  }
}

/** The answer for a tool that exists but is not served. */
function unknownTool(name: string, settings: ServerSettings): CallToolResult {
  const spec = toolSpecs.find((t) => t.name === name);
  if (spec === undefined) return textResult(`No operation is named ${JSON.stringify(name)}.`, true);
  if (!readsOnly(spec) && settings.allowWrites !== true)
    return textResult(
      `${name} changes something: this server is read-only. The person running it can start it with --allow-writes.`,
      true,
    );
  return textResult(
    `${name} is in the toolset ${spec.toolset}, which this server does not serve (--toolsets).`,
    true,
  );
}

/** `value` as a tool result: secret fields masked, credentials masked, at most the byte bound. */
function bounded(value: object, settings: ServerSettings, shared: Shared): CallToolResult {
  const max = settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const shown = settings.revealSecrets === true ? value : (maskSecretFields(value) as object);
  let text = shared.backend.maskCredentials(JSON.stringify(shown));
  if (Buffer.byteLength(text) > max) {
    const keys = Object.keys(shown);
    text = JSON.stringify({
      note: `The result is over ${max} bytes: call again with \`fields\` set to some of these fields.`,
      fields: keys,
    });
  }
  return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
}

/** Splits a tool's arguments into the call's path, query and body, and the server's own arguments. */
function readArguments(spec: ToolSpec, args: Record<string, unknown>) {
  const input: CallInput = {};
  for (const { name, in: where } of spec.inputs) {
    if (args[name] === undefined) continue;
    (input[where] ??= {})[name] = args[name];
  }
  if (spec.body && args["body"] !== undefined) input.body = args["body"];
  const fields = Array.isArray(args["fields"])
    ? args["fields"].filter((f): f is string => typeof f === "string")
    : undefined;
  const token =
    typeof args["confirmation_token"] === "string" ? args["confirmation_token"] : undefined;
  return { input, fields, token };
}

/** Runs one tool call; every outcome is a result (errors as `isError` results). */
async function callTool(
  server: Server,
  canElicit: boolean,
  shared: Shared,
  settings: ServerSettings,
  spec: ToolSpec,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const mask = shared.backend.maskCredentials;
  const { input, fields, token } = readArguments(spec, args);
  const { confirmation_token: _token, ...bound } = args;
  try {
    // Where a list resumes: a cursor of ours, or the service's own for a paged operation.
    let position = { offset: 0 } as { service?: string; offset: number };
    const cursor = typeof args["cursor"] === "string" ? args["cursor"] : undefined;
    if (cursor !== undefined) {
      const ours = decodeCursor(cursor);
      if (ours !== undefined) position = ours;
      else if (pagedByService(spec)) position = { service: cursor, offset: 0 };
      else
        return textResult(
          `The cursor is not one this server wrote: pass a nextCursor as given.`,
          true,
        );
    }
    if (pagedByService(spec)) {
      const query = { ...input.query };
      if (position.service === undefined) delete query["cursor"];
      else query["cursor"] = position.service;
      input.query = query;
    }
    if (spec.irreversible) {
      const go = await confirm(server, canElicit, shared, spec, bound, input, token);
      if (go !== true) return go;
    }
    const result = await shared.backend.send(spec.api, spec.operationId, input, {
      signal,
      ...(settings.deadlineMs === undefined ? {} : { deadlineMs: settings.deadlineMs }),
    });
    return shape(spec, result, position, fields, settings, shared);
  } catch (error) {
    return textResult(errorText(error, mask), true);
  }
}

/** The success body of `spec` as a bounded result (a page of a list, with its cursor). */
function shape(
  spec: ToolSpec,
  result: unknown,
  position: { service?: string; offset: number },
  fields: readonly string[] | undefined,
  settings: ServerSettings,
  shared: Shared,
): CallToolResult {
  if (spec.success === "acknowledgement") {
    return textResult(typeof result === "string" && result !== "" ? mask(shared, result) : "OK");
  }
  const max = settings.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
  const clean = (value: unknown) =>
    settings.revealSecrets === true ? value : maskSecretFields(value);
  // Room for the masking of credentials (a mask is never longer than what it replaces).
  const finish = (value: object): CallToolResult => {
    const text = shared.backend.maskCredentials(JSON.stringify(value));
    return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
  };
  if (spec.success === "array" && Array.isArray(result)) {
    const items = result.map((item) => select(clean(item), fields));
    const page = fitPage(
      items,
      position,
      max,
      (taken, next, summary) => ({
        items: taken,
        total: items.length,
        ...(next === undefined ? {} : { nextCursor: encodeCursor(next) }),
        ...(summary === undefined ? {} : { summary }),
      }),
      undefined,
    );
    return finish(page.value);
  }
  if (pagedByService(spec) && result && typeof result === "object") {
    const page = result as Record<string, unknown>;
    const listKey = ["events", "logs"].find((k) => Array.isArray(page[k]));
    if (listKey !== undefined) {
      const items = (page[listKey] as unknown[]).map((item) => select(clean(item), fields));
      const serviceNext =
        typeof page["cursor"] === "string" && page["cursor"] !== "" ? page["cursor"] : undefined;
      const fitted = fitPage(
        items,
        position,
        max,
        (taken, next, summary) => ({
          [listKey]: taken,
          ...(next === undefined ? {} : { cursor: encodeCursor(next) }),
          ...(summary === undefined ? {} : { summary }),
        }),
        serviceNext,
      );
      return finish(fitted.value);
    }
  }
  return bounded(select(clean(result), fields) as object, settings, shared);
}

const mask = (shared: Shared, text: string) => shared.backend.maskCredentials(text);

/**
 * Asks the person to confirm a destructive call: through elicitation when the client supports it and
 * the transport can carry the answer (not stateless HTTP), otherwise in two steps (a preview with a token bound to these arguments; the second call sends).
 * `true` when the call may go; otherwise the result to return instead (nothing was sent).
 */
async function confirm(
  server: Server,
  canElicit: boolean,
  shared: Shared,
  spec: ToolSpec,
  args: Record<string, unknown>,
  input: CallInput,
  token: string | undefined,
): Promise<true | CallToolResult> {
  const request = await shared.backend.capture(spec.api, spec.operationId, input);
  const shown = [`${request.method} ${request.url}`, ...(request.body ? [request.body] : [])].join(
    "\n",
  );
  if (canElicit && server.getClientCapabilities()?.elicitation !== undefined) {
    const answer = await server.elicitInput({
      message: `${spec.title}: this cannot be undone. Send this request?\n\n${shown}`,
      requestedSchema: {
        type: "object",
        properties: {
          confirm: { type: "boolean", title: "Send it", description: "Send this exact request." },
        },
        required: ["confirm"],
      },
    });
    if (answer.action === "accept" && answer.content?.["confirm"] === true) return true;
    return textResult(`Not sent: the person did not confirm (${answer.action}).`);
  }
  if (token !== undefined) {
    const redeemed = await shared.confirmations.redeem(token, spec.name, args);
    if (redeemed === true) return true;
    const why = {
      malformed: "it is not a confirmation token",
      "other-arguments":
        "it was issued for other arguments (or by a server with another confirmation secret)",
      expired: "it expired (tokens last 5 minutes)",
      used: "it was already used",
      unverifiable: "whether it was already used cannot be checked now (Redis unreachable)",
    }[redeemed];
    return textResult(
      `Not sent: the confirmation token was refused: ${why}. Call ${spec.name} again without confirmation_token to get a new preview.`,
      true,
    );
  }
  const issued = shared.confirmations.issue(spec.name, args);
  const preview = {
    confirmation_required: {
      request,
      confirmation_token: issued.token,
      expires_at: new Date(issued.expiresAt).toISOString(),
      next: `Nothing was sent. ${spec.title} cannot be undone: show this request to the person. Only if they confirm it, call ${spec.name} again with the same arguments plus confirmation_token (valid once, for 5 minutes).`,
    },
  };
  const text = JSON.stringify(preview);
  return { content: [{ type: "text", text }], structuredContent: preview };
}
