import picocolors from "picocolors";

/** The colour functions (all identity when colour is off). */
export type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * Whether to colour output written to `stream`: never with `NO_COLOR` set (https://no-color.org) or
 * `--no-color`, always with `FORCE_COLOR` (other than `0`), otherwise only on a terminal that is not dumb.
 */
export function colorEnabled(
  stream: { isTTY?: boolean },
  env: Readonly<Record<string, string | undefined>>,
  flag: boolean,
): boolean {
  if (!flag) return false;
  if (env["NO_COLOR"] !== undefined && env["NO_COLOR"] !== "") return false;
  const force = env["FORCE_COLOR"];
  if (force !== undefined && force !== "" && force !== "0" && force !== "false") return true;
  return stream.isTTY === true && env["TERM"] !== "dumb";
}

/** Colour functions for a stream. */
export function colorsFor(enabled: boolean): Colors {
  return picocolors.createColors(enabled);
}
