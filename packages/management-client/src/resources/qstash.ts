import type { RequestOptions } from "@api-clients/core";
import type { Context } from "../internal/request.js";
import type {
  MoveQStashToTeamRequest,
  QStashStats,
  QStashUser,
  SetQStashPlanRequest,
  StatsQuery,
  UpdateQStashBudgetRequest,
} from "../types.js";

/** The account's QStash users: one per region, each with the logs API token of that region. */
export interface QStash {
  /**
   * Lists the account's QStash users (one per region it uses).
   * @example
   * const [user] = await m.qstash.list();
   * const logs = createLogsClient({ token: user?.token ?? "", baseUrl: `https://qstash-${user?.region}.upstash.io` });
   */
  list(options?: RequestOptions): Promise<QStashUser[]>;
  /** Returns one QStash user with its current tokens. */
  get(id: string, options?: RequestOptions): Promise<QStashUser>;
  /**
   * Rotates the token (and password) and returns the user with the new ones; the old ones stop
   * working. Not retried on 5xx or timeouts: after an unknown outcome, read the token with `get`.
   */
  resetToken(id: string, options?: RequestOptions): Promise<QStashUser>;
  /** Moves the user to another plan (`free` is not a target). Not retried on 5xx or timeouts. */
  setPlan(id: string, body: SetQStashPlanRequest, options?: RequestOptions): Promise<void>;
  /** Daily counts, billing and bandwidth of this month, and series over `period` (default `1h`). */
  stats(id: string, query?: StatsQuery, options?: RequestOptions): Promise<QStashStats>;
  /** The IPv4 CIDR blocks QStash sends requests from, for firewall allow-lists. */
  ipv4(options?: RequestOptions): Promise<string[]>;
  /** Moves a QStash user under a team. Not retried on 5xx or timeouts. */
  moveToTeam(body: MoveQStashToTeamRequest, options?: RequestOptions): Promise<void>;
  /** Sets the monthly budget in US dollars (`0` = no cap, otherwise 20 to 10000). Safe to repeat. */
  updateBudget(
    id: string,
    body: UpdateQStashBudgetRequest,
    options?: RequestOptions,
  ): Promise<void>;
  /** Switches the production pack on. */
  enableProdPack(id: string, options?: RequestOptions): Promise<void>;
  /** Switches the production pack off. */
  disableProdPack(id: string, options?: RequestOptions): Promise<void>;
}

/** Builds the `qstash` resource group over the shared context. */
export function createQStash(ctx: Context): QStash {
  return {
    list: async (options) => ctx.request("listQStashUsers", {}, options),
    get: async (id, options) => ctx.request("getQStashUser", { path: { id } }, options),
    resetToken: async (id, options) => ctx.request("resetQStashToken", { path: { id } }, options),
    setPlan: async (id, body, options) =>
      ctx.request("setQStashPlan", { path: { id }, body }, options),
    stats: async (id, query, options) =>
      ctx.request("getQStashStats", { path: { id }, query }, options),
    ipv4: async (options) => ctx.request("getQStashIPv4", {}, options),
    moveToTeam: async (body, options) => ctx.request("moveQStashToTeam", { body }, options),
    updateBudget: async (id, body, options) =>
      ctx.request("updateQStashBudget", { path: { id }, body }, options),
    enableProdPack: async (id, options) =>
      ctx.request("enableQStashProdPack", { path: { id } }, options),
    disableProdPack: async (id, options) =>
      ctx.request("disableQStashProdPack", { path: { id } }, options),
  };
}
