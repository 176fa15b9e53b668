#!/usr/bin/env node
// The `api-clients` binary: runs the command line; the first Ctrl-C stops the command cleanly (an
// export prints its resume cursor), a second one exits at once. Exit codes: see `ExitCode`.
import { run } from "./index.js";

// Node's fetch keeps a timing entry naming the full URL of each of its last 250 requests: with the
// megabyte cursors a server may send, 250 MB that `logs tail` and `logs export` would never release.
// The command line reads none of them, so none is kept.
performance.setResourceTimingBufferSize(0);

// SIGTERM (what `timeout`, systemd, Kubernetes and CI send) stops it the same way, exit code 143; so
// does SIGHUP (the terminal or the SSH session closed), exit code 129.
const controller = new AbortController();
let interrupts = 0;
let exitCode = 130;
for (const [signal, code] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const) {
  process.on(signal, () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(code);
    exitCode = code;
    controller.abort();
  });
}

// Output piped into a reader that stopped (`| head`): stop quietly, as other command-line tools do;
// unless the command handles it (`logs export` says why it stopped and how to resume).
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (process.stdout.listenerCount("error") > 1) return;
  if (error.code === "EPIPE") process.exit(controller.signal.aborted ? exitCode : 0);
  throw error;
});

// After a hang-up the terminal may be gone: a failed write of a message has nowhere to be reported.
process.stderr.on("error", () => {});

const code = await run(process.argv.slice(2), { signal: controller.signal });
process.exitCode = code === 130 ? exitCode : code;
