import type { ListLogsParams, LogEntry } from "@api-clients/logs-client";
import type { Context } from "../context.js";
import { defineCommand } from "../command.js";
import { LIMIT_HELP, logFilters, readFilters, readLimit } from "./filters.js";
import { renderTable } from "../output/table.js";
import { entryColumns } from "./entry-table.js";
import { safeText } from "../output/safe.js";
import { printJson } from "../output/json.js";
import { paged } from "../output/pager.js";

const instantMs = (value: number | Date): number =>
  value instanceof Date ? value.getTime() : value;

/**
 * `api-clients logs list`: one page, as a table or (`--json`) as the page the API returned. With
 * `limit`, as many pages as it takes to show exactly `limit` entries (fewer when the log ends first).
 */
export async function listLogs(
  ctx: Context,
  params: ListLogsParams,
  json: boolean,
  limit?: number,
): Promise<void> {
  let page: { events: LogEntry[]; cursor?: string | undefined };
  if (limit === undefined) {
    page = await ctx.logs().list(params, { signal: ctx.signal });
  } else {
    const events: LogEntry[] = [];
    let cursor: string | undefined;
    for await (const read of ctx.logs().pages(params, { signal: ctx.signal })) {
      const room = limit - events.length;
      events.push(...read.events.slice(0, room));
      // A cursor resumes only after a whole page: none when the limit cut this one.
      cursor = read.events.length <= room ? read.cursor : undefined;
      if (events.length >= limit) break;
    }
    page = cursor === undefined ? { events } : { events, cursor };
  }
  if (json) {
    await printJson(ctx, page, page.events);
    return;
  }
  const { events, cursor } = page;
  if (events.length === 0) ctx.err("No log entries match.");
  else
    await paged(
      ctx,
      renderTable(events, entryColumns(ctx.colors), {
        terminalWidth: ctx.terminalWidth,
        headerStyle: ctx.colors.bold,
      }),
    );
  if (cursor === undefined) return;
  // A time ago (`--from 1h`) would mean another window by the time the next page is asked for: the
  // hint gives the bounds this page used, in Unix milliseconds, to use instead.
  const bounds = [
    ...(params.fromDate === undefined ? [] : [`--from ${instantMs(params.fromDate)}`]),
    ...(params.toDate === undefined ? [] : [`--to ${instantMs(params.toDate)}`]),
  ];
  ctx.err(
    ctx.errColors.dim(
      `More entries: add --cursor ${safeText(cursor)}` +
        (bounds.length === 0 ? "" : ` and ${bounds.join(" ")} (this window, in place of yours)`),
    ),
  );
}

const { filters, flags } = logFilters(
  [],
  [
    {
      flags: "--json [fields]",
      description:
        "print the page as JSON ({ events, cursor }) instead of a table; with fields (--json messageId,state), only the entries with those fields",
    },
    { flags: "--limit <n>", description: `${LIMIT_HELP}; pages on until it has them` },
  ],
);

/** `api-clients logs list`. */
export const listCommand = defineCommand({
  path: ["logs", "list"],
  summary: "one page of log entries as a table, newest first",
  flags,
  read: (_args, opts, env) => ({
    params: readFilters(opts, filters, env.now, env.warn) as ListLogsParams,
    json: opts["json"] === true,
    limit: readLimit(opts),
  }),
  run: (ctx, input) => listLogs(ctx, input.params, input.json, input.limit),
});
