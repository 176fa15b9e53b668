// Type-check cost probe (part 6): a consumer that calls every method of the management client.
import { createManagementClient } from "@api-clients/management-client";

export async function useManagement(email: string, apiKey: string): Promise<number> {
  const m = createManagementClient({ email, apiKey, baseUrl: "http://127.0.0.1:1" });
  const db = await m.databases.create({ name: "cache", primary_region: "eu-west-1", tls: true });
  const id = db.database_id!;
  await m.databases.get(id, { credentials: "hide" });
  const all = await m.databases.list();
  await m.databases.stats(id);
  await m.databases.rename(id, { name: "cache-2" });
  await m.databases.resetPassword(id);
  await m.databases.enableTls(id);
  await m.databases.enableEviction(id);
  await m.databases.disableEviction(id);
  await m.databases.enableAutoUpgrade(id);
  await m.databases.disableAutoUpgrade(id);
  await m.databases.updateRegions(id, { read_regions: ["us-east-1"] });
  const team = await m.teams.create({ team_name: "ops", copy_cc: false });
  await m.databases.moveToTeam({ team_id: team.team_id!, database_id: id });
  await m.backups.create(id, { name: "nightly" });
  const backups = await m.backups.list(id);
  await m.backups.restore(id, { backup_id: backups[0]?.backup_id ?? "b" });
  await m.backups.enableDaily(id);
  await m.backups.disableDaily(id);
  await m.backups.delete(id, backups[0]?.backup_id ?? "b");
  await m.teams.list();
  await m.teams.addMember({ team_id: team.team_id!, member_email: "a@b.c", member_role: "dev" });
  const members = await m.teams.listMembers(team.team_id!);
  await m.teams.removeMember({ team_id: team.team_id!, member_email: "a@b.c" });
  await m.teams.delete(team.team_id!);
  const index = await m.vector.create({
    name: "docs",
    region: "us-east-1",
    similarity_function: "COSINE",
    dimension_count: 1536,
  });
  await m.vector.list();
  await m.vector.get(index.id!);
  await m.vector.rename(index.id!, { name: "docs-2" });
  await m.vector.resetTokens(index.id!);
  await m.vector.setPlan(index.id!, { target_plan: "fixed" });
  await m.vector.transfer(index.id!, { target_account: "someone" });
  await m.vector.delete(index.id!);
  await m.databases.delete(id);
  return all.length + members.length;
}
