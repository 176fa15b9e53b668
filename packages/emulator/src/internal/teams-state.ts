// Teams and their members, and the one rights check every resource passes: what a role may do with
// what an account or a team owns (`ResourceAccess`), and whose audit entries a caller reads.
import { uuid, type Entropy } from "./entropy.js";
import { HttpError } from "./http-error.js";
import { asObj, str, type Account, type Handlers, type ResourceAccess } from "./resource.js";

type Role = "owner" | "admin" | "dev" | "finance";

/**
 * What a role may do with a resource it can reach through a team (the seed names the roles; the
 * rules follow the service's published team documentation: admins and devs manage databases, only
 * owners and admins manage members, only the owner deletes the team, finance manages billing only).
 */
const CAN: Record<"use" | "members" | "deleteTeam", readonly Role[]> = {
  /** Read or change a team's databases, backups and indexes, move them in or out. */
  use: ["owner", "admin", "dev"],
  /** Add or remove members. */
  members: ["owner", "admin"],
  /** Delete the team. */
  deleteTeam: ["owner"],
};

/** A team as stored and as snapshots carry it. */
export interface TeamRecord {
  team_id: string;
  team_name: string;
  copy_cc: boolean;
  members: [email: string, role: Role][];
}

/** What the other resource modules tell the teams module. */
export interface TeamHooks {
  /** Notes, for the audit entry of the running write, the resource's owner and its id. */
  touch: ResourceAccess["touch"];
  /** What a team still owns, by kind ("database(s)": 2): a team that owns anything is not deleted. */
  owned(team: string): [kind: string, count: number][];
  /** Called when a team is deleted (its audit entries go with it). */
  deleted(team: string): void;
}

function member(team: TeamRecord, email: string, role: Role): Record<string, unknown> {
  return {
    team_id: team.team_id,
    team_name: team.team_name,
    member_email: email,
    member_role: role,
    copy_cc: team.copy_cc,
  };
}

/** The teams of every account, and the rights check over what accounts and teams own. */
export class Teams implements ResourceAccess {
  private teams = new Map<string, TeamRecord>();

  constructor(
    private readonly entropy: Entropy,
    private readonly hooks: TeamHooks,
  ) {}

  snapshot(): TeamRecord[] {
    return structuredClone([...this.teams.values()]);
  }

  restore(teams: TeamRecord[]): void {
    this.teams = new Map(structuredClone(teams).map((t) => [t.team_id, t]));
  }

  // --- the rights check ---------------------------------------------------------------------------

  private role(team: TeamRecord, email: string): Role | undefined {
    return team.members.find(([e]) => e === email)?.[1];
  }

  /** The caller's role over what `owner` (an e-mail or a team id) owns: `owner` of its own things. */
  private roleOver(owner: string, account: Account): Role | undefined {
    if (owner === account.email) return "owner";
    const team = this.teams.get(owner);
    return team === undefined ? undefined : this.role(team, account.email);
  }

  canUse(owner: string, account: Account): boolean {
    const role = this.roleOver(owner, account);
    return role !== undefined && CAN.use.includes(role);
  }

  allow(owner: string, account: Account, what: string, action: string): void {
    const role = this.roleOver(owner, account);
    // Another account's resource answers exactly like a missing one.
    if (role === undefined) throw new HttpError(404, `${what} not found`);
    if (!CAN.use.includes(role)) {
      throw new HttpError(
        403,
        `${what}: a ${role} member of team ${owner} cannot ${action}; ${CAN.use.join(", ")} can`,
      );
    }
  }

  destination(target: string, account: Account, field: string): string {
    if (target === account.email) return target;
    const team = this.teams.get(target);
    const role = team && this.role(team, account.email);
    if (role === undefined) throw new HttpError(404, `${field}: team ${target} not found`);
    if (!CAN.use.includes(role)) {
      throw new HttpError(
        403,
        `${field}: a ${role} member of team ${target} cannot move resources into it; ${CAN.use.join(", ")} can`,
      );
    }
    return target;
  }

  isTeam(id: string): boolean {
    return this.teams.has(id);
  }

  touch(owner: string | undefined, entity: string): void {
    this.hooks.touch(owner, entity);
  }

  /** Owners whose audit entries the caller reads: its own, and teams it owns or administers. */
  auditOwners(account: Account): string[] {
    const teams = [...this.teams.values()]
      .filter((t) => CAN.members.includes(this.role(t, account.email) as Role))
      .map((t) => t.team_id);
    return [account.email, ...teams];
  }

  // --- the teams themselves -----------------------------------------------------------------------

  private team(id: string, account: Account): TeamRecord {
    const team = this.teams.get(id);
    if (!team || this.role(team, account.email) === undefined)
      throw new HttpError(404, `team ${id} not found`);
    // Changes to the team itself are logged under the caller (a deleted team's entries go with it).
    this.touch(undefined, id);
    return team;
  }

  private require(team: TeamRecord, account: Account, can: "members" | "deleteTeam"): void {
    const role = this.role(team, account.email) as Role;
    if (!CAN[can].includes(role)) {
      const action = can === "members" ? "change its members" : "delete it";
      throw new HttpError(
        403,
        `team ${team.team_id}: a ${role} member cannot ${action}; only ${CAN[can].join(" or ")} can`,
      );
    }
  }

  readonly handlers: Handlers = {
    createTeam: ({ account, body }) => {
      const b = asObj(body);
      const team: TeamRecord = {
        team_id: uuid(this.entropy),
        team_name: str(b["team_name"]),
        copy_cc: b["copy_cc"] === true,
        members: [[account.email, "owner"]],
      };
      this.teams.set(team.team_id, team);
      this.touch(undefined, team.team_id);
      return { team_id: team.team_id, team_name: team.team_name, copy_cc: team.copy_cc };
    },
    deleteTeam: ({ account, params }) => {
      const team = this.team(str(params["id"]), account);
      this.require(team, account, "deleteTeam");
      const id = team.team_id;
      const owned = this.hooks.owned(id);
      if (owned.some(([, n]) => n > 0)) {
        const list = owned.map(([kind, n]) => `${n} ${kind}`);
        throw new HttpError(
          400,
          `team ${id} still owns ${list.slice(0, -1).join(", ")} and ${list.at(-1)}; move or delete them first`,
        );
      }
      this.teams.delete(id);
      this.hooks.deleted(id);
      return "OK";
    },
    listTeams: ({ account }) =>
      [...this.teams.values()]
        .filter((t) => this.role(t, account.email) !== undefined)
        .map((t) => ({
          team_id: t.team_id,
          team_name: t.team_name,
          copy_cc: t.copy_cc,
          member_role: this.role(t, account.email),
        })),
    listTeamMembers: ({ account, params }) => {
      const team = this.team(str(params["team_id"]), account);
      return team.members.map(([email, role]) => member(team, email, role));
    },
    addTeamMember: ({ account, body }) => {
      const b = asObj(body);
      const team = this.team(str(b["team_id"]), account);
      this.require(team, account, "members");
      const email = str(b["member_email"]);
      if (this.role(team, email) !== undefined) {
        throw new HttpError(
          409,
          `member_email: ${email} is already a member of team ${team.team_id}`,
        );
      }
      const role = str(b["member_role"]) as Role;
      team.members.push([email, role]);
      return member(team, email, role);
    },
    removeTeamMember: ({ account, body }) => {
      const b = asObj(body);
      const team = this.team(str(b["team_id"]), account);
      this.require(team, account, "members");
      const email = str(b["member_email"]);
      const role = this.role(team, email);
      if (role === undefined) {
        throw new HttpError(404, `member_email: ${email} is not a member of team ${team.team_id}`);
      }
      if (role === "owner") {
        throw new HttpError(
          400,
          `member_email: the owner of team ${team.team_id} cannot be removed`,
        );
      }
      team.members = team.members.filter(([e]) => e !== email);
      return "OK";
    },
  };
}
