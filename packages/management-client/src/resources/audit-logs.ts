import type { RequestOptions } from "@api-clients/core";
import type { Context } from "../internal/request.js";
import type { AuditLog } from "../types.js";

/** The account's audit log. */
export interface AuditLogs {
  /**
   * The whole audit log as one array (the service does not page it; retention depends on the plan).
   * Sent to `/auditlogs` at the host, the one path without `/v2`.
   * @example
   * for (const entry of await m.auditLogs.list()) console.log(entry.timestamp, entry.actor, entry.action_string);
   */
  list(options?: RequestOptions): Promise<AuditLog[]>;
}

/** Builds the `auditLogs` resource group over the shared context. */
export function createAuditLogs(ctx: Context): AuditLogs {
  return { list: async (options) => ctx.request("listAuditLogs", {}, options) };
}
