// Entry of the server-side runtimes (Node 20/22/24, Bun, Deno): the emulator's address and credentials come as
// one JSON argument; the checks go to stdout as one line `RESULT <json>`.
import { otelCheck } from "./otel.mjs";
import { runScenario } from "./scenario.mjs";

const args = globalThis.Deno?.args ?? process.argv.slice(2);
const checks = await runScenario(JSON.parse(args[0]), { otelCheck });
console.log(`RESULT ${JSON.stringify(checks)}`);
