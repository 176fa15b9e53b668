/**
 * How late this machine fires a timer right now: a bound on a duration the code under test ends with
 * a timer can allow that much more, so a busy machine's scheduling does not fail it.
 *
 * @example
 * const lateness = timerLateness(2000); // started with the call
 * await callWithDeadline(2000);
 * expect(elapsed).toBeLessThanOrEqual(2500 + (await lateness));
 */
export function timerLateness(ms: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) =>
    setTimeout(() => resolve(Math.max(0, performance.now() - started - ms)), ms),
  );
}
