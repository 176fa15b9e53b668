#!/usr/bin/env node
// `pnpm start`: starts the emulator and drives both clients against it, printing what happens, then runs
// one `api-clients` command (the command line, packages/cli) against it.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startEmulator } from "../packages/emulator/dist/index.js";
import { createLogsClient } from "../packages/logs-client/dist/index.js";
import { createManagementClient, NotFoundError } from "../packages/management-client/dist/index.js";

const started = performance.now();
const ms = (since) => `${(performance.now() - since).toFixed(0)} ms`;

const RESULT_WIDTH = 56;

/**
 * Whole items joined by `separator` while they fit in the result column, then how many are left out
 * (`a, b, +2 more`): a result is never cut mid-word.
 */
function fit(items, separator = ", ") {
  let text = "";
  for (const [i, item] of items.entries()) {
    const next = text === "" ? item : `${text}${separator}${item}`;
    const rest = items.length - i - 1;
    const more = rest > 0 ? `${separator}+${rest} more` : "";
    if (text !== "" && `${next}${more}`.length > RESULT_WIDTH) {
      return `${text}${separator}+${items.length - i} more`;
    }
    text = next;
  }
  return text;
}

/** Runs one step, printing its name, a one-line result and how long it took. */
async function step(name, action) {
  const at = performance.now();
  const result = await action();
  console.log(`  ${name.padEnd(44)} ${String(result ?? "ok").padEnd(RESULT_WIDTH)} ${ms(at)}`);
  return result;
}

const emu = await startEmulator({ port: 0, seedLogs: 100_000, seed: 42 });
console.log(
  `Emulator at ${emu.url} with ${emu.logs.size.toLocaleString("en")} log entries (${ms(started)})\n`,
);
try {
  const logs = createLogsClient({ token: emu.credentials.logsToken, baseUrl: emu.url });
  console.log("Logs");
  await step("list({ count: 5 })", async () => {
    const page = await logs.list({ count: 5 });
    return `${page.events.length} entries, next cursor ${page.cursor}`;
  });
  await step("iterate every entry (100,000)", async () => {
    let count = 0;
    for await (const _entry of logs.iterate({ count: 1000 })) count++;
    return `${count.toLocaleString("en")} entries`;
  });
  await step("iterate FAILED", async () => {
    const urls = new Set();
    let count = 0;
    for await (const entry of logs.iterate({ state: "FAILED" })) {
      count++;
      urls.add(entry.url);
    }
    return `${count} failures across ${urls.size} urls`;
  });
  await step("the last hour of DELIVERED, page by page", async () => {
    let pages = 0;
    let entries = 0;
    for await (const page of logs.pages({
      state: "DELIVERED",
      fromDate: new Date(Date.now() - 3_600_000),
    })) {
      pages++;
      entries += page.events.length;
    }
    return `${entries} entries in ${pages} page(s)`;
  });
  const { messageId } = emu.logs.simulateMessage({ outcome: "failed", retries: 2 });
  await step("one message's life by messageId", async () => {
    const page = await logs.list({ messageId });
    // Newest first on the wire: shown oldest first.
    return fit(page.events.map((e) => e.state).reverse(), " → ");
  });
  emu.faults.add({ path: "/v2/logs", status: 503, times: 1 });
  emu.faults.add({ path: "/v2/logs", status: 429, retryAfter: 0.05, times: 1 });
  await step("list() through an injected 503 and 429", async () => {
    const page = await logs.list({ count: 1 }, { maxRetries: 3 });
    return `recovered: ${page.events.length} entry`;
  });

  const m = createManagementClient({
    email: emu.credentials.email,
    apiKey: emu.credentials.apiKey,
    baseUrl: emu.url,
  });
  console.log("\nManagement");
  let db;
  await step("databases.create (global, eu-west-1)", async () => {
    db = await m.databases.create({
      database_name: "demo-cache",
      primary_region: "eu-west-1",
      read_regions: ["us-east-1"],
      tls: true,
    });
    return `${db.database_name} at ${db.endpoint}`;
  });
  await step("databases.get with credentials hidden", async () => {
    const masked = await m.databases.get(db.database_id, { credentials: "hide" });
    return `password: ${masked.password ?? "(removed)"}`;
  });
  await step("databases.updateRegions + enableEviction", async () => {
    await m.databases.updateRegions(db.database_id, {
      read_regions: ["us-east-1", "ap-southeast-1"],
    });
    await m.databases.enableEviction(db.database_id);
    const now = await m.databases.get(db.database_id);
    return `regions ${now.read_regions?.join(", ")}, eviction ${now.eviction}`;
  });
  await step("backups.create + list + restore", async () => {
    await m.backups.create(db.database_id, { name: "before-demo" });
    const [backup] = await m.backups.list(db.database_id);
    await m.backups.restore(db.database_id, { backup_id: backup.backup_id });
    return `restored ${backup.name} (${backup.state})`;
  });
  let team;
  await step("teams.create + addMember", async () => {
    team = await m.teams.create({ team_name: "Demo team", copy_cc: false });
    const member = await m.teams.addMember({
      team_id: team.team_id,
      member_email: "teammate@example.com",
      member_role: "dev",
    });
    return `${team.team_name}: added ${member.member_email}`;
  });
  await step("teams.listMembers", async () => {
    const members = await m.teams.listMembers(team.team_id);
    return fit(members.map((x) => `${x.member_email} (${x.member_role})`));
  });
  await step("vector.create + resetTokens + setPlan", async () => {
    const index = await m.vector.create({
      name: "demo-docs",
      region: "us-east-1",
      similarity_function: "COSINE",
      dimension_count: 384,
      embedding_model: "BGE_SMALL_EN_V1_5",
    });
    await m.vector.resetTokens(index.id);
    await m.vector.setPlan(index.id, { target_plan: "fixed" });
    const now = await m.vector.get(index.id);
    return `${now.name}: plan ${now.type}, tokens rotated ${now.token !== index.token}`;
  });
  await step("databases.delete, then get → 404", async () => {
    await m.databases.delete(db.database_id);
    const error = await m.databases.get(db.database_id).catch((e) => e);
    return error instanceof NotFoundError
      ? `NotFoundError ${error.status}`
      : `unexpected: ${error}`;
  });

  // The command line, as a subprocess (asynchronously: the emulator answers from this process).
  const args = ["logs", "list", "--state", "FAILED", "--page-size", "5", "--base-url", emu.url];
  console.log(`\nCommand line\n  $ api-clients ${args.join(" ")}`);
  const at = performance.now();
  const cli = fileURLToPath(new URL("../packages/cli/bin/api-clients.js", import.meta.url));
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, ...args], {
    env: { ...process.env, QSTASH_TOKEN: emu.credentials.logsToken, NO_COLOR: "1" },
  });
  for (const line of `${stdout}${stderr}`.trimEnd().split("\n")) console.log(`  ${line}`);
  console.log(`  (${ms(at)})`);
  console.log(`\nDone in ${ms(started)}.`);
} finally {
  await emu.close();
}
