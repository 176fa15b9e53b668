// The path and query serializers of every call: openapi-fetch's own, with a string they cannot encode
// (a lone surrogate) reported as a `ValidationError` naming the parameter.
import { createQuerySerializer, defaultPathSerializer } from "openapi-fetch";
import { ValidationError } from "../errors.js";
import { requireWellFormed } from "./schema.js";

/** Path and query serializers that report a string openapi-fetch cannot encode as a `ValidationError`. */
function checkedSerializer<A, B>(
  serialize: (a: A, b: B) => string,
  location: "path" | "query",
  params: (a: A, b: B) => unknown,
): (a: A, b?: B) => string {
  // Two named parameters (the path serializer's), not a rest array made on every call.
  return (a, b) => {
    try {
      return serialize(a, b as B);
    } catch (error) {
      if (!(error instanceof URIError)) throw error;
      const values = params(a, b as B) as Record<string, unknown>;
      for (const [name, value] of Object.entries(values ?? {})) {
        for (const item of Array.isArray(value) ? value : [value]) {
          if (typeof item === "string") requireWellFormed(item, name);
        }
      }
      throw new ValidationError(location, "cannot be encoded into a URL");
    }
  };
}

/** The query serializer: openapi-fetch's default (`form`, exploded arrays), checked. */
export const querySerializer = checkedSerializer(
  createQuerySerializer(),
  "query",
  (query) => query,
);

/** The path serializer: openapi-fetch's default, checked. */
export const pathSerializer = checkedSerializer(
  defaultPathSerializer,
  "path",
  (_path: string, params: Record<string, unknown>) => params,
);
