// `pnpm changelog`: turns the diff between the last release's specs and the working tree into
// changeset files, one per affected package, in the words a caller of the client reads. Which change
// breaks callers is decided by `breakingChanges` (the classifier `check:breaking` uses); this module
// only words its findings and picks the bump from them.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { HTTP_METHODS, resolveRef } from "./openapi.mjs";
import { SPEC_CLIENTS, SPEC_EMBEDDERS, breakingBump } from "./release-base.mjs";
import { breakingChanges } from "./spec-diff.mjs";

const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());

/**
 * The method a caller writes for each operation id, e.g. `getDatabase` → `databases.get()`, read from
 * the hand-written resource modules (`name: async (...) => ctx.request("getDatabase", ...)`).
 */
export function methodNames(root) {
  const names = new Map();
  const sources = [["logs", join(root, "packages/logs-client/src/client.ts")]];
  const resources = join(root, "packages/management-client/src/resources");
  if (existsSync(resources)) {
    for (const file of readdirSync(resources).filter((f) => f.endsWith(".ts"))) {
      sources.push([camel(basename(file, ".ts")), join(resources, file)]);
    }
  }
  for (const [group, file] of sources) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    for (const [, method, id] of text.matchAll(
      /(\w+): async \([^)]*\) =>\s*(?:\w+\.)?(?:request|listAt)\(\s*"(\w+)"/g,
    )) {
      if (!names.has(id)) names.set(id, `${group}.${method}()`);
    }
  }
  return names;
}

/** `"GET /v2/logs"` → its operation id, for every operation of a spec. */
function operationIds(doc) {
  const ids = new Map();
  for (const [path, raw] of Object.entries(doc?.paths ?? {})) {
    const item = resolveRef(doc, raw) ?? {};
    for (const method of HTTP_METHODS) {
      if (item[method]?.operationId)
        ids.set(`${method.toUpperCase()} ${path}`, item[method].operationId);
    }
  }
  return ids;
}

const A = { string: "a string", number: "a number", integer: "an integer", boolean: "a boolean" };
const typeWords = (types) =>
  types
    .split("|")
    .map((t) => A[t] ?? (t === "array" ? "an array" : t === "object" ? "an object" : t))
    .join(" or ");

/** `request body.a.b`, `response.x[]`, `query parameter "id"` → who the caller sees changed. */
function subject(where) {
  const param = /^(\w+) parameter "([^"]+)"(.*)$/.exec(where);
  if (param) return `the ${param[1]} parameter \`${param[2]}${param[3]}\``;
  const field = /^(request body|response)(?:\.(.+))?$/.exec(where);
  if (!field) return `\`${where}\``;
  const side = field[1] === "response" ? "response" : "request";
  if (field[2] === undefined) return field[1] === "response" ? "the response" : "the request body";
  return `the ${side} field \`${field[2]}\``;
}

/** One `breakingChanges` line as a sentence about what the caller's code meets. */
function describe(rest) {
  const m =
    /^(.*?): (?:type changed from (\S+) to (\S+)|enum narrowed \(removed (.*)\)|now restricted to (.*)|(\w+) tightened to (.*)|(removed|now required|no longer always present))$/.exec(
      rest,
    );
  if (!m) return rest;
  const [, where, was, now, narrowed, only, bound, value, word] = m;
  const who = subject(where);
  if (was) return `${who} is now ${typeWords(now)}, was ${typeWords(was)}`;
  if (narrowed) return `${who} no longer accepts ${narrowed}`;
  if (only) return `${who} now accepts only ${only}`;
  if (bound) return `${who} now has a ${bound} of ${value}`;
  if (word === "removed") return `${who} was removed`;
  if (word === "now required") return `${who} is now required`;
  return `${who} may now be missing`;
}

/**
 * What changed in one spec, in the caller's words: `breaking` lines (from `breakingChanges`) and
 * `added` lines (what `breakingChanges` of the reverse diff finds removed: new operations,
 * parameters and response fields).
 */
export function specChanges(before, after, names) {
  const ids = new Map([...operationIds(before), ...operationIds(after)]);
  const call = (key) => {
    const id = ids.get(key);
    const name = id === undefined ? undefined : (names.get(id) ?? `request("${id}")`);
    return name === undefined ? `\`${key}\`` : `\`${name}\` (\`${key}\`)`;
  };
  const split = (line) => /^([A-Z]+ \S+): (.*)$/.exec(line) ?? [line, line, ""];
  const breaking = breakingChanges(before, after).map((line) => {
    const [, key, rest] = split(line);
    if (rest === "operation removed") return `${call(key)} was removed from the service`;
    if (rest === "now requires a request body") return `${call(key)} now requires a request body`;
    const added = /^new required (\w+) parameter "([^"]+)"$/.exec(rest);
    if (added) return `${call(key)} now requires the ${added[1]} parameter \`${added[2]}\``;
    return `${call(key)}: ${describe(rest)}`;
  });
  const added = [];
  for (const line of breakingChanges(after, before)) {
    const [, key, rest] = split(line);
    if (rest === "operation removed") added.push(`${call(key)} is new`);
    else if (
      /^\w+ parameter "[^"]+": removed$/.test(rest) ||
      /^response\.\S+: removed$/.test(rest)
    ) {
      const who = subject(rest.replace(/: removed$/, ""));
      added.push(`${call(key)}: ${who.replace(/^the /, "the new ")} is available`);
    }
  }
  return { breaking, added };
}

const RANK = { patch: 0, minor: 1, major: 2 };
const higher = (a, b) => (RANK[a] >= RANK[b] ? a : b);

/**
 * The changeset files for a diff between `specs` at the base (`before[spec]`, a parsed document or
 * `undefined`) and now (`after[spec]`): `{ file, text }`, one per affected package. A change the
 * classifier finds breaking bumps the client as `check:breaking` asks (major; minor before 1.0),
 * an addition minor, anything else patch; the packages that embed generated tables get at most minor.
 */
export function changesets({ root, before, after, changed, names, base }) {
  const perPackage = new Map();
  const add = (pkg, bump, section) => {
    const entry = perPackage.get(pkg) ?? { bump: "patch", sections: [] };
    entry.bump = higher(entry.bump, bump);
    entry.sections.push(section);
    perPackage.set(pkg, entry);
  };
  for (const [spec, client] of Object.entries(SPEC_CLIENTS)) {
    if (!changed.includes(spec) || after[spec] === undefined) continue;
    const { breaking, added } = before[spec]
      ? specChanges(before[spec], after[spec], names)
      : { breaking: [], added: [`\`${spec}\` is new`] };
    const bump =
      breaking.length > 0 ? breakingBump(root, client) : added.length > 0 ? "minor" : "patch";
    const lines = [
      ...breaking.map((l) => `- Breaking: ${l}.`),
      ...added.map((l) => `- New: ${l}.`),
    ];
    if (lines.length === 0) {
      lines.push(
        `- \`${spec}\` changed without changing what a call sends or receives (descriptions, examples).`,
      );
    }
    add(client, bump, `Changes from \`${spec}\` since ${base}:\n\n${lines.join("\n")}`);
    for (const pkg of SPEC_EMBEDDERS) {
      add(
        pkg,
        bump === "major" ? "minor" : bump,
        `Regenerated from \`${spec}\` (the changes ${client} lists for it):\n\n${lines.join("\n")}`,
      );
    }
  }
  return [...perPackage].map(([pkg, { bump, sections }]) => ({
    file: `changelog-${pkg.replace(/^@api-clients\//, "")}.md`,
    pkg,
    bump,
    text: `---\n"${pkg}": ${bump}\n---\n\n${sections.join("\n\n")}\n`,
  }));
}
