#!/usr/bin/env node
// The `api-clients` binary. A committed file (not dist/cli.js itself), so that installing the
// workspace links the bin before the package is built; it runs the compiled command line.
import "../dist/cli.js";
