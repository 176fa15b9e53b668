import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { withEmulatorFetchProject } from "../../vitest.shared.js";

export default defineConfig(withEmulatorFetchProject(fileURLToPath(new URL(".", import.meta.url))));
