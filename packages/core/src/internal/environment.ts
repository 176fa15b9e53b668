/**
 * Reads an environment variable where `process.env` exists (Node, Bun, Deno with `--allow-env`);
 * `undefined` elsewhere (browsers, workers) or when reading is not allowed.
 */
export function fromEnvironment(name: string): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
      ?.env;
    const value = env?.[name];
    return value === "" ? undefined : value;
  } catch {
    return undefined;
  }
}
