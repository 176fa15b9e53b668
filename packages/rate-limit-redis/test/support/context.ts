/**
 * A context as a client gives the limiter: a signal (aborted, through `controller`, when its call
 * ends) and the warnings it says, kept in `warnings`.
 */
export function context() {
  const controller = new AbortController();
  const warnings: string[] = [];
  return { signal: controller.signal, warn: (m: string) => warnings.push(m), controller, warnings };
}
