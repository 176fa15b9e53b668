// Entry of the server-side runtimes (Node, Bun, Deno): the emulator's address and credentials come as
// one JSON argument; the checks go to stdout as one line `RESULT <json>`.
import { runScenario } from "./scenario.mjs";

const args = globalThis.Deno?.args ?? process.argv.slice(2);
const checks = await runScenario(JSON.parse(args[0]));
console.log(`RESULT ${JSON.stringify(checks)}`);
