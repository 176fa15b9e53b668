// Every command of `api-clients`, as values (see `command.ts`), and the groups they are under.
import { CALL_GROUP, callCommands } from "./call.js";
import type { CliCommand, CommandGroup } from "./command.js";
import { completionCommand } from "./completion.js";
import { exportCommand } from "./logs/export.js";
import { listCommand } from "./logs/list.js";
import { messageCommand } from "./logs/message.js";
import { summaryCommand } from "./logs/summary.js";
import { tailCommand } from "./logs/tail.js";
import { GROUPS, managementCommands } from "./management/commands.js";

/** The groups of commands, with their help. */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    name: "logs",
    summary: "list, export and follow the delivery log (GET /v2/logs)",
    help: "\nFilters are the API's query parameters as flags (from the spec); dates take an ISO date,\nUnix milliseconds or a time ago (15m, 2h, 7d). Run `api-clients logs list --help` for the list.",
  },
  ...Object.entries(GROUPS).map(([name, summary]) => ({ name, summary })),
  CALL_GROUP,
];

/** Every command, in the order `--help` lists them. */
export function allCommands(): readonly CliCommand[] {
  const commands: CliCommand[] = [
    listCommand,
    messageCommand,
    summaryCommand,
    exportCommand,
    tailCommand,
    ...managementCommands(),
    ...callCommands(),
  ] as CliCommand[];
  return [...commands, completionCommand(commands) as CliCommand];
}
