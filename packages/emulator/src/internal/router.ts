// Matches a request path against the path templates of the spec operations.
import type { SpecOperation } from "../generated/operations.js";

interface Route {
  readonly template: string;
  readonly regex: RegExp;
  readonly names: readonly string[];
  /** Number of `{param}` segments: fewer means more specific (`/v2/teams/member` beats `/v2/teams/{team_id}`). */
  readonly params: number;
  readonly byMethod: Map<string, SpecOperation>;
}

/** What the router found for a path and method. */
export type RouteResult =
  | {
      readonly kind: "match";
      readonly op: SpecOperation;
      readonly params: Record<string, string>;
    }
  | { readonly kind: "method-not-allowed"; readonly allow: readonly string[] }
  | { readonly kind: "not-found" };

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Compiles a path template such as `/v2/redis/delete-backup/{id}/{backup_id}` into a regex. */
export function templateRegex(template: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const m = /^\{([^}]+)\}$/.exec(part);
      if (!m) return escapeRegex(part);
      names.push(m[1] ?? "");
      return "([^/]+)";
    })
    .join("");
  return { regex: new RegExp(`^${source}$`), names };
}

/** Routes requests to spec operations by path template and method. */
export class Router {
  private readonly routes: Route[] = [];
  readonly byOperationId = new Map<string, SpecOperation>();

  constructor(operations: readonly SpecOperation[]) {
    const byTemplate = new Map<string, Route>();
    for (const op of operations) {
      this.byOperationId.set(op.operationId, op);
      let route = byTemplate.get(op.path);
      if (!route) {
        const { regex, names } = templateRegex(op.path);
        route = {
          template: op.path,
          regex,
          names,
          params: names.length,
          byMethod: new Map(),
        };
        byTemplate.set(op.path, route);
        this.routes.push(route);
      }
      route.byMethod.set(op.method, op);
    }
    this.routes.sort((a, b) => a.params - b.params);
  }

  /** Finds the operation for `method` on `path` (the raw, still percent-encoded path). */
  match(method: string, path: string): RouteResult {
    const allow = new Set<string>();
    for (const route of this.routes) {
      const m = route.regex.exec(path);
      if (!m) continue;
      const op = route.byMethod.get(method);
      if (!op) {
        for (const k of route.byMethod.keys()) allow.add(k);
        continue;
      }
      const params: Record<string, string> = {};
      let ok = true;
      route.names.forEach((name, i) => {
        try {
          params[name] = decodeURIComponent(m[i + 1] ?? "");
        } catch {
          ok = false;
        }
      });
      if (!ok) continue;
      return { kind: "match", op, params };
    }
    if (allow.size > 0) return { kind: "method-not-allowed", allow: [...allow].sort() };
    return { kind: "not-found" };
  }
}
