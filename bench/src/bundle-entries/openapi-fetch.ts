// Bundle-size entry: bare openapi-fetch, the floor our clients build on.
export { default as createClient } from "openapi-fetch";
