// How a command is named in messages: its full path and its usage line.
import type { Command } from "commander";

/** The full name of a command, e.g. `api-clients logs list`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** `Usage: api-clients logs list [options]`. */
export function usageLine(command: Command): string {
  return `Usage: ${commandPath(command)} ${command.usage()}`;
}
