// `api-clients completion bash|zsh|fish`: a completion script generated from the command values
// (groups, commands, their flags, and the values of flags the spec gives a set of values for).
import type { CliCommand, FlagSpec } from "./command.js";
import { UsageError } from "./context.js";
import { GLOBAL_FLAGS } from "./globals.js";

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

/** A word the scripts may hold unquoted (names and values from the spec that are not are left out). */
const safe = (word: string): boolean => /^[A-Za-z0-9_.:=@/+-]+$/.test(word);

/** `-o, --out <file>` → `["-o", "--out"]`. */
const names = (spec: FlagSpec): string[] =>
  spec.flags.split(/[ ,|]+/).filter((part) => /^--?[A-Za-z0-9]/.test(part));

/** What the scripts complete: each node's words (subcommands, or an argument's values), flags and flag values. */
interface Tree {
  /** Every path that names a group or a command (`logs`, `logs list`), the root as "". */
  nodes: Map<string, { words: string[]; flags: string[] }>;
  /** `path|--flag` → the flag's values. */
  values: Map<string, string[]>;
}

function treeOf(commands: readonly CliCommand[]): Tree {
  const globals = GLOBAL_FLAGS.flatMap(names).concat(["--help", "--version"]);
  const nodes = new Map<string, { words: string[]; flags: string[] }>([
    ["", { words: [], flags: globals }],
  ]);
  const values = new Map<string, string[]>();
  const node = (path: string) => {
    let found = nodes.get(path);
    if (found === undefined) nodes.set(path, (found = { words: [], flags: ["--help"] }));
    return found;
  };
  for (const command of commands) {
    if (!command.path.every(safe)) continue;
    for (let i = 0; i < command.path.length; i++) {
      const parent = node(command.path.slice(0, i).join(" "));
      const word = command.path[i] as string;
      if (!parent.words.includes(word)) parent.words.push(word);
    }
    const path = command.path.join(" ");
    const own = node(path);
    for (const arg of command.args ?? []) own.words.push(...(arg.values ?? []).filter(safe));
    for (const spec of command.flags) {
      if (spec.hidden === true) continue;
      own.flags.push(...names(spec));
      if (spec.values !== undefined && spec.values.length > 0)
        for (const name of names(spec)) values.set(`${path}|${name}`, spec.values.filter(safe));
    }
  }
  return { nodes, values };
}

/** `case` arms for a shell function taking one key: `"key") echo "words";;`. */
function arms(entries: Iterable<[string, string[]]>, indent: string): string {
  return [...entries]
    .map(([key, words]) => `${indent}"${key}") echo "${words.join(" ")}";;`)
    .join("\n");
}

/** The functions bash and zsh share: the node test, a node's words and flags, a flag's values. */
function shared(tree: Tree): string {
  const nodes = [...tree.nodes.keys()].filter((path) => path !== "");
  return `_api_clients_node() {
  case "$1" in
${nodes.map((path) => `    "${path}") return 0;;`).join("\n")}
  esac
  return 1
}
_api_clients_words() {
  case "$1" in
${arms(
  [...tree.nodes].map(([path, n]) => [path, n.words]),
  "    ",
)}
  esac
}
_api_clients_flags() {
  case "$1" in
${arms(
  [...tree.nodes].map(([path, n]) => [
    path,
    [...new Set([...n.flags, ...(path === "" ? [] : (tree.nodes.get("")?.flags ?? []))])],
  ]),
  "    ",
)}
  esac
}
_api_clients_values() {
  case "$1" in
${arms(tree.values, "    ")}
  esac
}`;
}

function bash(tree: Tree): string {
  return `# api-clients completion for bash. Load it with:
#   source <(api-clients completion bash)
${shared(tree)}
_api_clients() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local cmdpath="" word i candidates
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    if _api_clients_node "\${cmdpath:+$cmdpath }$word"; then cmdpath="\${cmdpath:+$cmdpath }$word"; fi
  done
  candidates="$(_api_clients_values "$cmdpath|$prev")"
  if [[ -z "$candidates" ]]; then
    if [[ "$cur" == -* ]]; then candidates="$(_api_clients_flags "$cmdpath")"
    else candidates="$(_api_clients_words "$cmdpath")"; fi
  fi
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}
complete -F _api_clients api-clients
`;
}

function zsh(tree: Tree): string {
  return `#compdef api-clients
# api-clients completion for zsh. Load it with:
#   source <(api-clients completion zsh)
# or save it as _api-clients in a directory of $fpath.
${shared(tree)}
_api_clients() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}"
  local cmdpath="" word i candidates
  for ((i = 2; i < CURRENT; i++)); do
    word="\${words[i]}"
    [[ "$word" == -* ]] && continue
    if _api_clients_node "\${cmdpath:+$cmdpath }$word"; then cmdpath="\${cmdpath:+$cmdpath }$word"; fi
  done
  candidates="$(_api_clients_values "$cmdpath|$prev")"
  if [[ -z "$candidates" ]]; then
    if [[ "$cur" == -* ]]; then candidates="$(_api_clients_flags "$cmdpath")"
    else candidates="$(_api_clients_words "$cmdpath")"; fi
  fi
  compadd -- \${=candidates}
}
if (( $+functions[compdef] )); then compdef _api_clients api-clients; fi
`;
}

function fish(tree: Tree): string {
  const nodes = [...tree.nodes.keys()].filter((path) => path !== "");
  const lines = [
    "# api-clients completion for fish. Load it with:",
    "#   api-clients completion fish | source",
    "function __api_clients_path",
    "    set -l cmdpath",
    "    for word in (commandline -opc)[2..-1]",
    "        string match -q -- '-*' $word; and continue",
    '        set -l next (string join " " $cmdpath $word)',
    "        switch $next",
    `            case ${nodes.map((path) => `"${path}"`).join(" ")}`,
    "                set cmdpath $cmdpath $word",
    "        end",
    "    end",
    '    string join " " $cmdpath',
    "end",
    "complete -c api-clients -f",
  ];
  const root = tree.nodes.get("")?.flags ?? [];
  for (const [path, n] of tree.nodes) {
    const when = `-n 'test "$(__api_clients_path)" = "${path}"'`;
    if (n.words.length > 0) lines.push(`complete -c api-clients ${when} -a "${n.words.join(" ")}"`);
    for (const flag of new Set([...n.flags, ...(path === "" ? [] : root)])) {
      const value = tree.values.get(`${path}|${flag}`);
      const name = flag.startsWith("--") ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`;
      const takes = value === undefined ? "" : ` -x -a "${value.join(" ")}"`;
      lines.push(`complete -c api-clients ${when} ${name}${takes}`);
    }
  }
  return lines.join("\n") + "\n";
}

/** The completion script of `shell` for `commands`. */
export function completionScript(shell: Shell, commands: readonly CliCommand[]): string {
  const tree = treeOf(commands);
  return shell === "bash" ? bash(tree) : shell === "zsh" ? zsh(tree) : fish(tree);
}

/** `api-clients completion <shell>` over `commands` (itself included). */
export function completionCommand(commands: readonly CliCommand[]): CliCommand<{ shell: Shell }> {
  const self: CliCommand<{ shell: Shell }> = {
    path: ["completion"],
    summary: "print a completion script for bash, zsh or fish (see the README)",
    help: "\nbash: source <(api-clients completion bash)\nzsh:  source <(api-clients completion zsh)\nfish: api-clients completion fish | source",
    args: [{ name: "shell", description: "bash, zsh or fish", values: SHELLS }],
    flags: [],
    read(args) {
      const shell = args[0] as string;
      if (!(SHELLS as readonly string[]).includes(shell))
        throw new UsageError(`<shell>: expected bash, zsh or fish, got ${JSON.stringify(shell)}`);
      return { shell: shell as Shell };
    },
    async run(ctx, { shell }) {
      ctx.out(completionScript(shell, [...commands, self as CliCommand]));
    },
  };
  return self;
}
