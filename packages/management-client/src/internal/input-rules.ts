import {
  rejectUnknownKeys,
  requireBoolean,
  requireInteger,
  requireNonEmptyString,
  requireObject,
  requireOneOf,
  requirePathSegment,
  ValidationError,
} from "@api-clients/core";
import {
  EMBEDDING_MODELS,
  MEMBER_ROLES,
  PRIMARY_REGIONS,
  READ_REGIONS,
  SIMILARITY_FUNCTIONS,
  TARGET_PLANS,
  UPDATABLE_READ_REGIONS,
  VECTOR_PLANS,
  VECTOR_REGIONS,
} from "../enums.js";
import {
  pathsV2RedisDatabaseIdGetParametersQueryCredentialsValues,
  type components,
} from "../generated/schema.js";
import type { GetDatabaseQuery } from "../types.js";

type Schemas = components["schemas"];

/** Checks one value and returns it; throws {@link ValidationError} naming `field` otherwise. */
type Rule = (value: unknown, field: string) => unknown;
/** A rule for a field that must be present. */
type RequiredRule = Rule & { readonly presence: "required" };
/** A rule for a field that may be left out. */
type OptionalRule = Rule & { readonly presence: "optional" };

function required(rule: Rule): RequiredRule {
  const check: Rule = (value, field) => {
    if (value === undefined || value === null) throw new ValidationError(field, "is required");
    return rule(value, field);
  };
  return Object.assign(check, { presence: "required" as const });
}

function optional(rule: Rule): OptionalRule {
  const check: Rule = (value, field) => (value === undefined ? value : rule(value, field));
  return Object.assign(check, { presence: "optional" as const });
}

/**
 * One rule per field of `T`, required exactly where the generated type (so the spec) requires the
 * field: making a field required or optional in the spec breaks the build until its rule follows.
 */
type FieldRules<T> = {
  readonly [K in keyof T]-?: object extends Pick<T, K> ? OptionalRule : RequiredRule;
};

const nonEmptyString = required(requireNonEmptyString);
const boolean = required(requireBoolean);
const positiveInteger = required((value, field) => requireInteger(value, field, { min: 1 }));

function oneOf(allowed: readonly string[]): RequiredRule {
  return required((value, field) => requireOneOf(value, field, allowed));
}

function arrayOf(item: Rule): RequiredRule {
  return required((value, field) => {
    if (!Array.isArray(value)) throw new ValidationError(field, "must be an array");
    value.forEach((element, index) => item(element, `${field}[${index}]`));
    return value;
  });
}

/**
 * An id for a path segment: a non-empty string other than `.` and `..` (which URL parsing would
 * resolve as relative segments); openapi-fetch percent-encodes everything else into the segment.
 */
export const pathSegment = requirePathSegment;

/** The path of an operation addressed by one `{id}`, checked as a path segment named `field`. */
export function idPath(id: unknown, field = "id"): { id: string } {
  return { id: requirePathSegment(id, field) };
}

/**
 * A JSON object: every field of `T` has a rule (so a field added to the spec breaks the build until a
 * rule is written here), unknown fields are rejected, and `refine` checks rules across fields. Errors
 * name fields as `body.<name>` (or `<field>.<name>`).
 */
function object<T extends object>(
  fields: FieldRules<T>,
  refine?: (value: T, field: string) => void,
): (value: unknown, field?: string) => T {
  const keys = Object.keys(fields);
  return (value, field = "body") => {
    const record = requireObject(value, field);
    rejectUnknownKeys(record, field, keys);
    for (const key of keys) fields[key as keyof T](record[key], `${field}.${key}`);
    refine?.(value as T, field);
    return value as T;
  };
}

/** Rules for each request body, named after the operation that sends it. */
export const checkBody = {
  createDatabase: object<Schemas["CreateDatabaseRequest"]>(
    {
      name: nonEmptyString,
      region: optional(nonEmptyString),
      primary_region: optional(oneOf(PRIMARY_REGIONS)),
      read_regions: optional(arrayOf(oneOf(READ_REGIONS))),
      tls: optional(boolean),
    },
    (value, field) => {
      if (value.region === undefined || value.region === "global") return;
      for (const key of ["primary_region", "read_regions"] as const) {
        if (value[key] !== undefined) {
          throw new ValidationError(
            `${field}.${key}`,
            'is only allowed for a global database (region "global")',
          );
        }
      }
    },
  ),
  rename: object<Schemas["RenameRequest"]>({ name: nonEmptyString }),
  updateDatabaseRegions: object<Schemas["UpdateRegionsRequest"]>({
    read_regions: arrayOf(oneOf(UPDATABLE_READ_REGIONS)),
  }),
  moveDatabaseToTeam: object<Schemas["MoveToTeamRequest"]>({
    team_id: nonEmptyString,
    database_id: nonEmptyString,
  }),
  createBackup: object<Schemas["CreateBackupRequest"]>({ name: nonEmptyString }),
  restoreBackup: object<Schemas["RestoreBackupRequest"]>({ backup_id: nonEmptyString }),
  createTeam: object<Schemas["CreateTeamRequest"]>({ team_name: nonEmptyString, copy_cc: boolean }),
  addTeamMember: object<Schemas["AddTeamMemberRequest"]>({
    team_id: nonEmptyString,
    member_email: nonEmptyString,
    member_role: oneOf(MEMBER_ROLES),
  }),
  removeTeamMember: object<Schemas["RemoveTeamMemberRequest"]>({
    team_id: nonEmptyString,
    member_email: nonEmptyString,
  }),
  createVectorIndex: object<Schemas["CreateVectorIndexRequest"]>({
    name: nonEmptyString,
    region: oneOf(VECTOR_REGIONS),
    similarity_function: oneOf(SIMILARITY_FUNCTIONS),
    dimension_count: positiveInteger,
    type: optional(oneOf(VECTOR_PLANS)),
    embedding_model: optional(oneOf(EMBEDDING_MODELS)),
  }),
  setVectorIndexPlan: object<Schemas["SetPlanRequest"]>({ target_plan: oneOf(TARGET_PLANS) }),
  transferVectorIndex: object<Schemas["TransferRequest"]>({ target_account: nonEmptyString }),
};

/** Rules for the query of `databases.get`. */
export const checkGetDatabaseQuery = object<GetDatabaseQuery>({
  credentials: optional(oneOf(pathsV2RedisDatabaseIdGetParametersQueryCredentialsValues)),
});
