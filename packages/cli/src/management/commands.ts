// The management commands (`db`, `backups`, `teams`, `vector`, …), one row each: which operation a
// command sends, which of its inputs are positional arguments, and how its answer is printed. Every
// flag, its help text (the spec's description and values) and its reading come from the generated
// operation table, so an input added to the spec becomes a flag without code here.
import type { CliCommand, FlagSpec } from "../command.js";
import type { Consent } from "../confirm.js";
import { GLOBAL_LONG_FLAGS } from "../globals.js";
import { UsageError, type Context } from "../context.js";
import {
  camel,
  fieldOf,
  inputHint,
  kebab,
  operation,
  readInput,
  type CliInput,
  type CliOperation,
} from "../operations.js";
import { dryRun, formatRequest, readBody, send, type SendInput } from "../send.js";
import type { Column } from "../output/table.js";
import { printJson } from "../output/json.js";
import {
  auditLogColumns,
  backupColumns,
  databaseColumns,
  memberColumns,
  printList,
  printRecord,
  printStats,
  qstashColumns,
  searchColumns,
  teamColumns,
  vectorColumns,
} from "./tables.js";
import { safeJson, safeText } from "../output/safe.js";

/** How a command prints a success. */
type View = { list: Column<object>[]; empty: string } | "record" | "stats" | undefined;

/** One command: `group name` (or one word), the operation it sends, and how it reads and prints. */
interface CommandRow {
  readonly command: string;
  readonly op: string;
  /** Inputs given as positional arguments, in order (default: the path parameters). */
  readonly args?: readonly string[];
  /** Flag names for inputs that read badly as flags (`database_name` → `--name`). */
  readonly flags?: Readonly<Record<string, string>>;
  /** Default: a record for an object, the lines of a list of strings, `OK` for an acknowledgement. */
  readonly view?: View;
}

const list = (columns: Column<never>[], empty: string): View => ({
  list: columns as Column<object>[],
  empty,
});

/** The command groups, with their help line. */
export const GROUPS: Readonly<Record<string, string>> = {
  db: "key-value (Redis) databases",
  backups: "backups of a key-value database",
  teams: "teams and their members",
  vector: "vector indexes",
  search: "search indexes",
  qstash: "the account's QStash users (one per region)",
};

/** Every management command. */
export const COMMANDS: readonly CommandRow[] = [
  { command: "db list", op: "listDatabases", view: list(databaseColumns, "No databases.") },
  { command: "db get", op: "getDatabase", view: "record" },
  { command: "db stats", op: "getDatabaseStats", view: "stats" },
  { command: "db create", op: "createDatabase", flags: { database_name: "name" }, view: "record" },
  { command: "db delete", op: "deleteDatabase" },
  { command: "db rename", op: "renameDatabase", view: "record" },
  { command: "db reset-password", op: "resetDatabasePassword", view: "record" },
  { command: "db enable-tls", op: "enableDatabaseTls" },
  { command: "db enable-eviction", op: "enableDatabaseEviction" },
  { command: "db disable-eviction", op: "disableDatabaseEviction" },
  { command: "db enable-autoupgrade", op: "enableDatabaseAutoUpgrade" },
  { command: "db disable-autoupgrade", op: "disableDatabaseAutoUpgrade" },
  { command: "db update-regions", op: "updateDatabaseRegions" },
  { command: "db move-to-team", op: "moveDatabaseToTeam", args: ["database_id"] },
  { command: "db change-plan", op: "changePlan", flags: { plan_name: "plan" } },
  { command: "db budget", op: "updateBudget" },
  { command: "backups list", op: "listBackups", view: list(backupColumns, "No backups.") },
  { command: "backups create", op: "createBackup" },
  { command: "backups restore", op: "restoreBackup" },
  { command: "backups delete", op: "deleteBackup" },
  { command: "backups enable-daily", op: "enableDailyBackup" },
  { command: "backups disable-daily", op: "disableDailyBackup" },
  { command: "teams list", op: "listTeams", view: list(teamColumns, "No teams.") },
  { command: "teams members", op: "listTeamMembers", view: list(memberColumns, "No members.") },
  { command: "teams create", op: "createTeam", flags: { team_name: "name" }, view: "record" },
  { command: "teams delete", op: "deleteTeam" },
  {
    command: "teams add-member",
    op: "addTeamMember",
    args: ["team_id"],
    flags: { member_email: "member", member_role: "role" },
  },
  {
    command: "teams remove-member",
    op: "removeTeamMember",
    args: ["team_id"],
    flags: { member_email: "member" },
  },
  {
    command: "vector list",
    op: "listVectorIndexes",
    view: list(vectorColumns, "No vector indexes."),
  },
  { command: "vector get", op: "getVectorIndex", view: "record" },
  { command: "vector create", op: "createVectorIndex", view: "record" },
  { command: "vector delete", op: "deleteVectorIndex" },
  { command: "vector rename", op: "renameVectorIndex" },
  { command: "vector reset-password", op: "resetVectorIndexTokens" },
  { command: "vector set-plan", op: "setVectorIndexPlan" },
  { command: "vector transfer", op: "transferVectorIndex" },
  { command: "vector stats", op: "getVectorIndexStats", view: "stats" },
  { command: "vector global-stats", op: "getGlobalVectorStats", view: "record" },
  {
    command: "search list",
    op: "listSearchIndexes",
    view: list(searchColumns, "No search indexes."),
  },
  { command: "search get", op: "getSearchIndex", view: "record" },
  { command: "search create", op: "createSearchIndex", view: "record" },
  { command: "search delete", op: "deleteSearchIndex" },
  { command: "search rename", op: "renameSearchIndex" },
  { command: "search reset-password", op: "resetSearchPassword" },
  { command: "search transfer", op: "transferSearchIndex" },
  { command: "search stats", op: "getSearchIndexStats", view: "stats" },
  { command: "search global-stats", op: "getGlobalSearchStats", view: "record" },
  { command: "qstash list", op: "listQStashUsers", view: list(qstashColumns, "No QStash users.") },
  { command: "qstash get", op: "getQStashUser", view: "record" },
  { command: "qstash rotate-token", op: "resetQStashToken", view: "record" },
  { command: "qstash set-plan", op: "setQStashPlan", flags: { plan_name: "plan" } },
  { command: "qstash stats", op: "getQStashStats", view: "stats" },
  { command: "qstash ipv4", op: "getQStashIPv4" },
  { command: "qstash budget", op: "updateQStashBudget" },
  { command: "qstash enable-prodpack", op: "enableQStashProdPack" },
  { command: "qstash disable-prodpack", op: "disableQStashProdPack" },
  {
    command: "qstash move-to-team",
    op: "moveQStashToTeam",
    args: ["qstash_id"],
    flags: { target_team_id: "team-id" },
  },
  {
    command: "audit-log",
    op: "listAuditLogs",
    view: list(auditLogColumns, "No audit log entries."),
  },
];

/** One flag of a command and the input it fills. */
interface Flag {
  input: CliInput;
  flag: string;
}

/** The help line of an input: the spec's description, then what it takes. */
function about(input: CliInput): string {
  const hint = inputHint(input);
  const text = [input.description, hint === "" ? undefined : `(${hint})`].filter(Boolean).join(" ");
  return input.required ? `${text} [required]` : text;
}

/** The help after a command's options: what the operation does, its request and retry safety. */
function operationNote(op: CliOperation): string {
  const lines = ["", `Sends ${op.method} ${op.path} (${op.id}).`];
  if (op.description) lines.push(op.description);
  if (!op.idempotent) lines.push("Not retried on 5xx or timeouts: repeating it is not safe.");
  return lines.join("\n");
}

/** What a management command sends and how it prints the answer. */
export interface ManagementInput {
  input: SendInput;
  dryRun: boolean;
  consent: Consent;
  json: boolean;
  showSecrets: boolean;
}

/** The one factory of management commands: a row of {@link COMMANDS} as a command value. */
export function managementCommand(row: CommandRow): CliCommand<ManagementInput> {
  const op = operation(row.op);
  const argNames = row.args ?? op.inputs.filter((i) => i.in === "path").map((i) => i.name);
  const args = argNames.map((name) => {
    const input = op.inputs.find((i) => i.name === name);
    if (input === undefined) throw new Error(`${row.command}: ${op.id} has no input ${name}`);
    return input;
  });
  const specs: FlagSpec[] = [];
  const used = new Set(GLOBAL_LONG_FLAGS);
  const flags: Flag[] = [];
  for (const input of op.inputs) {
    if (argNames.includes(input.name) || input.deprecated) continue;
    const flag = `--${kebab(row.flags?.[input.name] ?? input.name)}`;
    if (used.has(flag)) throw new Error(`${row.command}: ${flag} is taken`);
    used.add(flag);
    const values = input.values === undefined ? {} : { values: input.values };
    if (input.type === "boolean" && !input.repeatable) {
      specs.push({ flags: flag, description: about(input), fills: [fieldOf(input)] });
      specs.push({ flags: `--no-${flag.slice(2)}`, description: `sets ${input.name} to false` });
    } else {
      const value = input.type === "integer" || input.type === "number" ? "n" : "value";
      specs.push({
        flags: `${flag} <${value}>`,
        description: about(input),
        fills: [fieldOf(input)],
        repeat: true,
        ...values,
      });
    }
    flags.push({ input, flag });
  }
  if (op.body !== undefined)
    specs.push({
      flags: "--body <json>",
      description: "the JSON body (inline, @file or @- for stdin); flags override its fields",
    });
  if (op.irreversible)
    specs.push({
      flags: "-y, --yes",
      description: "send without asking: it cannot be undone (needed without a terminal)",
    });
  if (op.method !== "GET")
    specs.push({
      flags: "--dry-run",
      description: "print the request that would be sent, and send nothing",
    });
  specs.push({
    flags: "--json [fields]",
    description:
      "print the answer as JSON, as the API returned it; with fields (--json database_id,state), only those fields of each record",
  });
  if (row.view === "record")
    specs.push({
      flags: "--show-secrets",
      description: "show passwords and tokens in the table (JSON always has them)",
    });

  return {
    path: row.command.split(" "),
    summary: op.summary,
    help: operationNote(op),
    args: args.map((input) => ({
      name: input.name,
      description: about(input).replace(/ \[required\]$/, ""),
      fills: [fieldOf(input)],
    })),
    flags: specs,
    async read(received, opts, env) {
      const input: SendInput = {};
      let body: Record<string, unknown> | undefined;
      if (typeof opts["body"] === "string") {
        const given = await readBody(env.stdin, opts["body"]);
        if (typeof given !== "object" || given === null || Array.isArray(given))
          throw new UsageError("--body: expected a JSON object");
        body = { ...(given as Record<string, unknown>) };
      }
      const place = (field: CliInput, value: unknown) => {
        if (field.in === "body") (body ??= {})[field.name] = value;
        else (input[field.in] ??= {})[field.name] = value;
      };
      args.forEach((field, i) => {
        place(field, readInput(field, [received[i] as string], `<${field.name}>`, env.warn));
      });
      for (const { input: field, flag } of flags) {
        const given = opts[camel(flag)];
        if (given === undefined) continue;
        place(
          field,
          typeof given === "boolean" ? given : readInput(field, given as string[], flag, env.warn),
        );
      }
      if (body !== undefined) input.body = body;
      else if (op.body?.required) input.body = {};
      // Named by its positional arguments and any required flag (a team member by team and e-mail).
      const named = [
        ...args.map((_, i) => received[i] as string),
        ...flags.filter((f) => f.input.required).map((f) => String(opts[camel(f.flag)] ?? "")),
      ];
      return {
        input,
        dryRun: opts["dryRun"] === true,
        consent: { yes: opts["yes"] === true, resource: named.filter(Boolean).join(" ") },
        json: opts["json"] === true,
        showSecrets: opts["showSecrets"] === true,
      };
    },
    async run(ctx, read) {
      if (read.dryRun) {
        ctx.out(formatRequest(ctx, await dryRun(ctx, op, read.input)));
        ctx.err("(dry run: nothing was sent)");
        return;
      }
      const result = await send(ctx, op, read.input, read.consent);
      await print(ctx, row.view, result, read);
    },
  };
}

/** Every management command, one per row of {@link COMMANDS}. */
export const managementCommands = (): CliCommand<ManagementInput>[] =>
  COMMANDS.map(managementCommand);

async function print(
  ctx: Context,
  view: View,
  result: unknown,
  read: ManagementInput,
): Promise<void> {
  const { json } = read;
  if (json) return printJson(ctx, result);
  // An acknowledgement: the client resolves it to nothing (or to the text the service sent).
  if (result === undefined || typeof result === "string") {
    const text = typeof result === "string" && result !== "" ? result : "OK";
    ctx.out(json ? safeJson(text) + "\n" : safeText(text) + "\n");
    return;
  }
  if (typeof view === "object") {
    await printList(ctx, result as object[], view.list, json, view.empty);
    return;
  }
  if (view === "stats") {
    printStats(ctx, result as never, json);
    return;
  }
  if (!json && Array.isArray(result) && result.every((v) => typeof v === "string")) {
    ctx.out(result.map((v) => `${safeText(v)}\n`).join(""));
    return;
  }
  if (!json && typeof result === "object" && result !== null && !Array.isArray(result)) {
    await printRecord(ctx, result, false, read.showSecrets);
    return;
  }
  ctx.out(safeJson(result, 2) + "\n");
}
