import { Argument, type Command } from 'commander';

/** Every command path (`""`, `"workspaces"`, `"addons configs"`) with its subcommands and flags. */
interface Node {
  path: string;
  children: string[];
  flags: string[];
}

function walk(cmd: Command, path: string, into: Node[], inherited: string[]): void {
  const own = cmd.options.filter((o) => !o.hidden).flatMap((o) => [o.long, o.short].filter((f): f is string => !!f));
  const flags = [...new Set([...own, ...inherited, '--help'])];
  const visible = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
  into.push({ path, children: visible.flatMap((c) => [c.name(), ...c.aliases()]), flags });
  for (const child of visible)
    for (const name of [child.name(), ...child.aliases()])
      walk(child, path ? `${path} ${name}` : name, into, path === '' ? own : inherited);
}

function tree(program: Command): Node[] {
  const nodes: Node[] = [];
  walk(program, '', nodes, []);
  return nodes;
}

const cases = (nodes: Node[], pick: (n: Node) => string[], indent: string, end: string) =>
  nodes.map((n) => `${indent}"${n.path}") echo "${pick(n).join(' ')}" ${end}`).join('\n');

function bash(nodes: Node[]): string {
  return `# acacia completion for bash: source <(acacia completion bash)
_acacia_children() {
  case "$1" in
${cases(nodes, (n) => n.children, '    ', ';;')}
  esac
}
_acacia_flags() {
  case "$1" in
${cases(nodes, (n) => n.flags, '    ', ';;')}
  esac
}
_acacia() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ $w == -* ]] && continue
    if [[ " $(_acacia_children "$path") " == *" $w "* ]]; then path="\${path:+$path }$w"; fi
  done
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_acacia_flags "$path")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_acacia_children "$path")" -- "$cur"))
  fi
}
complete -F _acacia acacia
`;
}

function zsh(nodes: Node[]): string {
  return `#compdef acacia
# acacia completion for zsh: source <(acacia completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(nodes).split('\n').slice(1).join('\n')}`;
}

function fish(nodes: Node[]): string {
  const fishCases = (pick: (n: Node) => string[]) =>
    nodes.map((n) => `    case '${n.path}'\n      printf '%s\\n' ${pick(n).join(' ')}`).join('\n');
  return `# acacia completion for fish: acacia completion fish | source
function __acacia_children
  switch "$argv[1]"
${fishCases((n) => n.children)}
  end
end
function __acacia_flags
  switch "$argv[1]"
${fishCases((n) => n.flags)}
  end
end
function __acacia_path
  set -l path ''
  for w in (commandline -opc)[2..-1]
    string match -q -- '-*' $w; and continue
    if contains -- $w (__acacia_children $path)
      set path (string trim -- "$path $w")
    end
  end
  echo $path
end
complete -c acacia -f
complete -c acacia -n 'not string match -q -- "-*" (commandline -ct)' -a '(__acacia_children (__acacia_path))'
complete -c acacia -n 'string match -q -- "-*" (commandline -ct)' -a '(__acacia_flags (__acacia_path))'
`;
}

export function completionCommand(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script: source <(acacia completion bash)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action((shell: 'bash' | 'zsh' | 'fish') => {
      const nodes = tree(program);
      process.stdout.write({ bash, zsh, fish }[shell](nodes));
    });
}
