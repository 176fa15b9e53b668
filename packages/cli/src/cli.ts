#!/usr/bin/env node
// The `api-clients` binary: runs the command line; the first Ctrl-C stops the command cleanly (an
// export prints its resume cursor), a second one exits at once. Exit codes: see `ExitCode`.
import { run } from "./index.js";

const controller = new AbortController();
let interrupts = 0;
process.on("SIGINT", () => {
  interrupts += 1;
  if (interrupts > 1) process.exit(130);
  controller.abort();
});

// Output piped into a reader that stopped (`| head`): stop quietly, as other command-line tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(controller.signal.aborted ? 130 : 0);
  throw error;
});

const code = await run(process.argv.slice(2), { signal: controller.signal });
process.exitCode = code;
