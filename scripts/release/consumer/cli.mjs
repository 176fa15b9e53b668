// A fresh consumer runs the installed `api-clients` binary (through npx, no download) against the
// installed emulator: one page of logs as a table, then a wrong token (exit 1, the token never shown).
import { execFile } from "node:child_process";
import { startEmulator } from "@api-clients/emulator";

const emulator = await startEmulator({ seedLogs: 10 });
try {
  // Asynchronously: the emulator answers from this same process.
  const list = (token) =>
    new Promise((resolve) => {
      execFile(
        "npx",
        ["--no-install", "api-clients", "logs", "list", "--base-url", emulator.url, "--count", "3"],
        { encoding: "utf8", env: { ...process.env, QSTASH_TOKEN: token, NO_COLOR: "1" } },
        (error, stdout, stderr) =>
          resolve({ status: error ? (error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const ok = await list(emulator.credentials.logsToken);
  console.log(`cli: exit ${ok.status}`);
  console.log(`cli: first line ${ok.stdout.split("\n")[0]}`);
  if (ok.status !== 0) console.log(ok.stderr);
  const wrong = "wrong-token-4f1c2e";
  const bad = await list(wrong);
  const shown = `${bad.stdout}${bad.stderr}`.includes(wrong);
  console.log(`cli: wrong token exit ${bad.status}, token shown ${shown}`);
} finally {
  await emulator.close();
}
