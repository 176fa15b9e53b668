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

function typeOf(schema) {
  if (!schema) return "any";
  if (schema.oneOf || schema.anyOf)
    return (schema.oneOf ?? schema.anyOf).map((s) => s.type ?? "ref").join("|");
  return schema.type ?? (schema.properties ? "object" : "any");
}

/** Changes to one schema, as a request input (`input`) or as a response (`!input`). */
function compareSchema(oldDoc, newDoc, oldRaw, newRaw, where, input, out, depth = 0) {
  const before = resolve(oldDoc, oldRaw);
  const after = resolve(newDoc, newRaw);
  if (!before || !after || depth > 8) return;
  if (typeOf(before) !== typeOf(after) && typeOf(before) !== "any") {
    out.push(`${where}: type changed from ${typeOf(before)} to ${typeOf(after)}`);
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
