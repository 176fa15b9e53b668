// Which flag or argument of a command fills which input: marked on commander's own `Option` and
// `Argument` values when a command is defined, so the error report reads the flag of a
// `ValidationError`'s field from the command that failed (no state written while it runs).
import type { Argument, Command, Option } from "commander";

/** An option or argument that fills inputs, and how each is shown (`--name`, `<id>`, `--param id`). */
type Filling = (Option | Argument) & { fills?: ReadonlyMap<string, string> };

/**
 * Marks `target` as filling `fields` (the names a `ValidationError` gives them: `count`,
 * `body.database_name`), each shown as `shown(field)` (by default the flag or `<argument>`).
 */
export function fills<T extends Option | Argument>(
  target: T,
  fields: readonly string[],
  shown?: (field: string) => string,
): T {
  const name =
    "flags" in target
      ? (((target as Option).long ?? (target as Option).short) as string)
      : `<${(target as Argument).name()}>`;
  (target as Filling).fills = new Map(fields.map((f) => [f, shown ? shown(f) : name]));
  return target;
}

/** The flag or argument of `command` that fills `field`, as the user typed it; or `undefined`. */
export function flagFor(command: Command, field: string): string | undefined {
  const marked: Filling[] = [...command.options, ...command.registeredArguments];
  for (const target of marked) {
    const shown = target.fills?.get(field);
    if (shown !== undefined) return shown;
  }
  return undefined;
}
