import type { RequestOptions } from "@api-clients/core";
import type { Context } from "../internal/request.js";
import type {
  AddTeamMemberRequest,
  CreateTeamRequest,
  RemoveTeamMemberRequest,
  Team,
  TeamMember,
} from "../types.js";

/** Teams and their members. */
export interface Teams {
  /** Creates a team owned by the caller (not retried on 5xx or timeouts). */
  create(body: CreateTeamRequest, options?: RequestOptions): Promise<Team>;
  /** Lists the teams the account is a member of. */
  list(options?: RequestOptions): Promise<Team[]>;
  /** Deletes a team. */
  delete(teamId: string, options?: RequestOptions): Promise<void>;
  /** Lists the members of a team with their roles. */
  listMembers(teamId: string, options?: RequestOptions): Promise<TeamMember[]>;
  /** Adds an account to a team with a role (not retried on 5xx or timeouts). */
  addMember(body: AddTeamMemberRequest, options?: RequestOptions): Promise<TeamMember>;
  /** Removes an account from a team (sent as DELETE with a JSON body). */
  removeMember(body: RemoveTeamMemberRequest, options?: RequestOptions): Promise<void>;
}

/** Builds the `teams` resource group over the shared context. */
export function createTeams(ctx: Context): Teams {
  return {
    create: async (body, options) => ctx.request("createTeam", { body }, options),
    list: async (options) => ctx.request("listTeams", {}, options),
    delete: async (teamId, options) => ctx.request("deleteTeam", { path: { id: teamId } }, options),
    listMembers: async (teamId, options) =>
      ctx.request("listTeamMembers", { path: { team_id: teamId } }, options),
    addMember: async (body, options) => ctx.request("addTeamMember", { body }, options),
    removeMember: async (body, options) => ctx.request("removeTeamMember", { body }, options),
  };
}
