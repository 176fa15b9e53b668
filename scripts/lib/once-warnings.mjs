// `pnpm test` runs vitest once per package and Node version; some warnings come from every one of those
// processes although they say one thing: vitest's "Testing types … is an experimental feature" (each
// run with type tests) and Node's NODE_TLS_REJECT_UNAUTHORIZED warning (the core suite's https
// redirect test, on each Node version). This filter lets each such warning through once per run.

/** Warnings printed by every process that says them; each pattern is one warning (all its lines). */
const REPEATED = [
  {
    key: "vitest-typecheck",
    line: /Testing types with tsc and vue-tsc is an experimental feature/,
  },
  { key: "vitest-typecheck", line: /Breaking changes might not follow SemVer, please pin Vitest/ },
  { key: "node-tls", line: /NODE_TLS_REJECT_UNAUTHORIZED environment variable to '0'/ },
  {
    key: "node-tls",
    line: /\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)/,
  },
];

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * A line filter for one run: `true` to print the line. A line of a known repeated warning is printed
 * the first time only (matched without colours and whatever prefix turbo adds); every other line passes.
 */
export function onceWarnings() {
  const seen = new Map();
  return (line) => {
    const plain = line.replace(ANSI, "");
    const known = REPEATED.find(({ line: pattern }) => pattern.test(plain));
    if (known === undefined) return true;
    const which = known.line.source;
    const lines = seen.get(known.key) ?? new Set();
    seen.set(known.key, lines);
    if (lines.has(which)) return false;
    lines.add(which);
    return true;
  };
}
