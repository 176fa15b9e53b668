import type { ListLogsParams } from "@api-clients/logs-client";
import type { Context } from "../context.js";
import { renderTable } from "../output/table.js";
import { entryColumns } from "./entry-table.js";
import { safeJson, safeText } from "../output/safe.js";

/** `api-clients logs list`: one page, as a table or (`--json`) as the page the API returned. */
export async function listLogs(ctx: Context, params: ListLogsParams, json: boolean): Promise<void> {
  const page = await ctx.logs().list(params, { signal: ctx.signal });
  if (json) {
    ctx.out(safeJson(page, 2) + "\n");
    return;
  }
  if (page.events.length === 0) ctx.err("No log entries match.");
  else
    ctx.out(
      renderTable(page.events, entryColumns(ctx.colors), {
        terminalWidth: ctx.terminalWidth,
        headerStyle: ctx.colors.bold,
      }),
    );
  if (page.cursor !== undefined)
    ctx.err(ctx.errColors.dim(`More entries: add --cursor ${safeText(page.cursor)}`));
}
