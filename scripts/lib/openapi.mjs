// Small helpers for reading the OpenAPI documents, shared by the codegen and the spec diff.

/** The HTTP methods an OpenAPI path item can hold, in the order operations are listed. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Follows local `$ref`s (`#/components/...`) inside `doc`; a cycle resolves to `{}`. */
export function resolveRef(doc, node, seen = new Set()) {
  if (!node || typeof node !== "object" || typeof node.$ref !== "string") return node;
  if (seen.has(node.$ref)) return {};
  seen.add(node.$ref);
  const target = node.$ref
    .slice(2)
    .split("/")
    .reduce((value, key) => value?.[key], doc);
  return resolveRef(doc, target, seen);
}
