// Runs the emulator in its own process, so that its CPU time and memory are not counted as the
// client's. Usage: emulator-server.ts <seedLogs>. Prints `{"url","credentials"}` when ready.
import { startEmulator } from "@api-clients/emulator";

const seedLogs = Number(process.argv[2] ?? "0");
const emu = await startEmulator({ port: 0, seedLogs, seed: 7, keepAliveTimeoutMs: 60_000 });
process.stdout.write(`${JSON.stringify({ url: emu.url, credentials: emu.credentials })}\n`);
const stop = () => void emu.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
