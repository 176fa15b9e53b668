// The table views of management records. `--json` prints the records as the API returned them.
import type {
  Database,
  DatabaseStats,
  Team,
  TeamMember,
  VectorIndex,
} from "@api-clients/management-client";
import { paged } from "../output/pager.js";
import type { Context } from "../context.js";
import { localIso } from "../logs/entry-table.js";
import { formatValue, renderRecord, renderTable, type Column } from "../output/table.js";
import { safeJson } from "../output/safe.js";

const get = (row: object, name: string): string =>
  formatValue((row as Record<string, unknown>)[name]);

/** A Unix-seconds field as a local time (`creation_time`), or the value as it is. */
const seconds = (row: object, name: string): string => {
  const value = (row as Record<string, unknown>)[name];
  return typeof value === "number" && Number.isFinite(value)
    ? localIso(value * 1000).replace(/\.000(?=[+-])/, "")
    : formatValue(value);
};

const col = <Row extends object>(
  header: string,
  name: string,
  extra: Partial<Column<Row>> = {},
): Column<Row> => ({
  header,
  value: (row) => get(row, name),
  ...extra,
});

/** Fields that hold credentials: masked in table views unless `--show-secrets`. */
const SECRET_FIELDS = new Set([
  "password",
  "rest_token",
  "read_only_rest_token",
  "token",
  "read_only_token",
]);

export const databaseColumns: Column<Database>[] = [
  col("ID", "database_id", { id: true }),
  col("NAME", "database_name", { shrink: true, max: 40 }),
  col("TYPE", "type", { drop: 1 }),
  { header: "REGION", value: (d) => get(d, "primary_region") || get(d, "region") },
  {
    header: "READ REGIONS",
    value: (d) => {
      const regions = (d as Record<string, unknown>)["read_regions"];
      return Array.isArray(regions) ? regions.join(",") : formatValue(regions);
    },
    shrink: true,
    drop: 3,
  },
  col("STATE", "state"),
  col("TLS", "tls", { drop: 4 }),
  col("ENDPOINT", "endpoint", { shrink: true, drop: 2 }),
  { header: "CREATED", value: (d) => seconds(d, "creation_time"), drop: 5 },
];

export const teamColumns: Column<Team>[] = [
  col("TEAM ID", "team_id", { id: true }),
  col("NAME", "team_name", { shrink: true }),
  col("ROLE", "member_role"),
  col("COPY CC", "copy_cc"),
];

export const memberColumns: Column<TeamMember>[] = [
  col("EMAIL", "member_email", { shrink: true }),
  col("ROLE", "member_role"),
  col("TEAM ID", "team_id", { id: true }),
  col("TEAM", "team_name", { shrink: true }),
];

export const vectorColumns: Column<VectorIndex>[] = [
  col("ID", "id", { id: true }),
  col("NAME", "name", { shrink: true, max: 40 }),
  col("REGION", "region"),
  col("TYPE", "type"),
  col("SIMILARITY", "similarity_function"),
  col("DIMENSIONS", "dimension_count", { right: true }),
  col("MODEL", "embedding_model", { shrink: true }),
  col("ENDPOINT", "endpoint", { shrink: true }),
  { header: "CREATED", value: (v) => seconds(v, "creation_time") },
];

export const backupColumns: Column<object>[] = [
  col("BACKUP ID", "backup_id", { id: true }),
  col("NAME", "name", { shrink: true, max: 40 }),
  col("STATE", "state"),
  col("SIZE", "backup_size", { right: true }),
  col("DAILY", "daily_backup"),
  { header: "CREATED", value: (b) => seconds(b, "creation_time") },
];

export const searchColumns: Column<object>[] = [
  col("ID", "id", { id: true }),
  col("NAME", "name", { shrink: true, max: 40 }),
  col("REGION", "region"),
  col("TYPE", "type"),
  col("ENDPOINT", "endpoint", { shrink: true }),
  { header: "CREATED", value: (s) => seconds(s, "creation_time") },
];

export const qstashColumns: Column<object>[] = [
  col("ID", "id", { id: true }),
  col("REGION", "region"),
  col("TYPE", "type"),
  col("STATE", "state"),
  col("BUDGET", "budget", { right: true }),
  col("PROD PACK", "prod_pack_enabled"),
  { header: "CREATED", value: (q) => seconds(q, "creation_time") },
];

export const auditLogColumns: Column<object>[] = [
  { header: "TIME", value: (a) => seconds(a, "timestamp") },
  col("ACTOR", "actor", { shrink: true }),
  col("ACTION", "action_string", { shrink: true }),
  col("ENTITY", "entity", { id: true }),
  col("SOURCE", "source", { shrink: true }),
  col("IP", "ip"),
];

/** Prints records as JSON or as a table. */
export async function printList<Row extends object>(
  ctx: Context,
  rows: Row[],
  columns: Column<Row>[],
  json: boolean,
  empty: string,
): Promise<void> {
  if (json) {
    ctx.out(safeJson(rows, 2) + "\n");
    return;
  }
  if (rows.length === 0) {
    ctx.err(empty);
    return;
  }
  await paged(
    ctx,
    renderTable(rows, columns, { terminalWidth: ctx.terminalWidth, headerStyle: ctx.colors.bold }),
  );
}

/** Prints one record as JSON, or as `field  value` lines with credentials masked unless `showSecrets`. */
export async function printRecord(
  ctx: Context,
  record: object,
  json: boolean,
  showSecrets: boolean,
): Promise<void> {
  if (json) {
    ctx.out(safeJson(record, 2) + "\n");
    return;
  }
  // Without a prototype, a field named `__proto__` is a field like any other (on `{}` it would be lost).
  const shown: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(record))
    shown[key] =
      !showSecrets &&
      SECRET_FIELDS.has(key) &&
      typeof value === "string" &&
      value !== "" &&
      value !== "***"
        ? "*** (--show-secrets to show)"
        : key.endsWith("creation_time")
          ? seconds(record, key)
          : value;
  await paged(
    ctx,
    renderRecord(shown, { terminalWidth: ctx.terminalWidth, keyStyle: ctx.colors.bold }),
  );
}

/** A time series of the stats (`[{ x, y }]`) in one cell: its length and last point. */
function series(value: unknown[]): string {
  const last = value.at(-1) as { x?: unknown; y?: unknown } | undefined;
  if (last === undefined) return "(no points)";
  if (typeof last === "object" && last !== null && "y" in last)
    return `${value.length} points, last ${formatValue(last.y)} at ${formatValue(last.x)}`;
  return value.map(formatValue).join(", ");
}

/** Prints database statistics: scalars as they are, time series as their length and last point. */
export function printStats(ctx: Context, stats: DatabaseStats, json: boolean): void {
  if (json) {
    ctx.out(safeJson(stats, 2) + "\n");
    return;
  }
  const shown: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(stats))
    shown[key] = Array.isArray(value) ? series(value) : value;
  ctx.out(renderRecord(shown, { terminalWidth: ctx.terminalWidth, keyStyle: ctx.colors.bold }));
}
