// Finds the changes between two versions of an OpenAPI 3.0 document that break existing callers.
// Requests: a removed operation or parameter, a parameter or body field that became required or
// appeared as required, a narrowed enum, a changed type, a tighter bound. Responses: a removed or
// retyped field. Additions that callers may ignore are not breaking.

import { HTTP_METHODS, resolveRef as resolve } from "./openapi.mjs";

function operations(doc) {
  const result = new Map();
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = resolve(doc, rawItem);
    for (const method of HTTP_METHODS) {
      if (!item[method]) continue;
      const op = item[method];
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) =>
        resolve(doc, p),
      );
      result.set(`${method.toUpperCase()} ${path}`, { op, params });
    }
  }
  return result;
}

/** The JSON types a schema allows, e.g. `["string"]` or `["array", "string"]`; `["any"]` when open. */
function typesOf(doc, schema) {
  if (!schema) return ["any"];
  // A `type` next to `anyOf`/`oneOf` (e.g. "one of these fields is required") decides the type.
  if (schema.type) return [schema.type];
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) return [...new Set(branches.flatMap((b) => typesOf(doc, resolve(doc, b))))].sort();
  return [schema.properties ? "object" : "any"];
}

/** Whether every value of the types `inner` is also one of the types `outer`. */
function covers(outer, inner) {
  if (outer.includes("any")) return true;
  return inner.every((t) => outer.includes(t) || (t === "integer" && outer.includes("number")));
}

/** Changes to one schema, as a request input (`input`) or as a response (`!input`). */
function compareSchema(oldDoc, newDoc, oldRaw, newRaw, where, input, out, depth = 0) {
  const before = resolve(oldDoc, oldRaw);
  const after = resolve(newDoc, newRaw);
  if (!before || !after || depth > 8) return;
  const was = typesOf(oldDoc, before);
  const now = typesOf(newDoc, after);
  // An input may widen (a filter that now also takes an array); a response may only narrow.
  if (!was.includes("any") && !(input ? covers(now, was) : covers(was, now))) {
    out.push(`${where}: type changed from ${was.join("|")} to ${now.join("|")}`);
    return;
  }
  if (input && Array.isArray(before.enum)) {
    const removed = before.enum.filter((value) => !(after.enum ?? before.enum).includes(value));
    if (!Array.isArray(after.enum) && removed.length === 0) {
      // Widened to any value: fine for callers.
    } else if (removed.length > 0) {
      out.push(
        `${where}: enum narrowed (removed ${removed.map((v) => JSON.stringify(v)).join(", ")})`,
      );
    }
  } else if (input && !Array.isArray(before.enum) && Array.isArray(after.enum)) {
    out.push(`${where}: now restricted to ${after.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  }
  if (input) {
    for (const [key, tighter] of [
      ["minimum", (a, b) => b > a],
      ["maximum", (a, b) => b < a],
      ["minLength", (a, b) => b > a],
      ["maxLength", (a, b) => b < a],
    ]) {
      const a = before[key];
      const b = after[key];
      if (b !== undefined && (a === undefined || tighter(a, b)))
        out.push(`${where}: ${key} tightened to ${b}`);
    }
  }
  if (before.items || after.items) {
    compareSchema(oldDoc, newDoc, before.items, after.items, `${where}[]`, input, out, depth + 1);
  }
  const oldProps = before.properties ?? {};
  const newProps = after.properties ?? {};
  const oldRequired = new Set(before.required ?? []);
  for (const name of Object.keys(oldProps)) {
    if (!(name in newProps)) {
      // A removed request field breaks callers only where unknown fields are rejected.
      if (!input || after.additionalProperties === false) out.push(`${where}.${name}: removed`);
      continue;
    }
    compareSchema(
      oldDoc,
      newDoc,
      oldProps[name],
      newProps[name],
      `${where}.${name}`,
      input,
      out,
      depth + 1,
    );
  }
  if (input) {
    for (const name of after.required ?? []) {
      if (!oldRequired.has(name)) out.push(`${where}.${name}: now required`);
    }
  } else {
    for (const name of oldRequired) {
      if (name in newProps && !(after.required ?? []).includes(name))
        out.push(`${where}.${name}: no longer always present`);
    }
  }
}

function jsonBody(doc, node) {
  return resolve(doc, resolve(doc, node)?.content?.["application/json"]?.schema);
}

/**
 * Lists the breaking changes from `oldDoc` to `newDoc`, one line each, e.g.
 * `GET /v2/logs: query parameter "count": maximum tightened to 100`.
 */
export function breakingChanges(oldDoc, newDoc) {
  const out = [];
  const before = operations(oldDoc);
  const after = operations(newDoc);
  for (const [key, { op, params }] of before) {
    const next = after.get(key);
    if (!next) {
      out.push(`${key}: operation removed`);
      continue;
    }
    const nextParams = new Map(next.params.map((p) => [`${p.in}:${p.name}`, p]));
    for (const param of params) {
      const label = `${key}: ${param.in} parameter "${param.name}"`;
      const now = nextParams.get(`${param.in}:${param.name}`);
      if (!now) {
        out.push(`${label}: removed`);
        continue;
      }
      if (now.required && !param.required) out.push(`${label}: now required`);
      compareSchema(oldDoc, newDoc, param.schema, now.schema, label, true, out);
    }
    const known = new Set(params.map((p) => `${p.in}:${p.name}`));
    for (const param of next.params) {
      if (param.required && !known.has(`${param.in}:${param.name}`)) {
        out.push(`${key}: new required ${param.in} parameter "${param.name}"`);
      }
    }
    const oldBody = jsonBody(oldDoc, op.requestBody);
    const newBody = jsonBody(newDoc, next.op.requestBody);
    if (!oldBody && newBody && resolve(newDoc, next.op.requestBody)?.required) {
      out.push(`${key}: now requires a request body`);
    } else if (oldBody && newBody) {
      compareSchema(oldDoc, newDoc, oldBody, newBody, `${key}: request body`, true, out);
    }
    const oldOk = jsonBody(oldDoc, op.responses?.["200"]);
    const newOk = jsonBody(newDoc, next.op.responses?.["200"]);
    if (oldOk && newOk) compareSchema(oldDoc, newDoc, oldOk, newOk, `${key}: response`, false, out);
  }
  return out;
}
