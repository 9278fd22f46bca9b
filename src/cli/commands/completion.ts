import { Argument, type Command, type Option } from 'commander';
import { AcaciaClient, resultOf } from '../../client/index.js';
import { resolveTarget } from '../context.js';
import { allWorkgroups, findWorkspace } from '../resolve.js';

/**
 * The completion scripts hold no command tree: each asks the CLI itself what may come next
 * (`acacia __complete <words so far> <current word>`), so they stay right as commands change
 * and can offer names the server knows. Run as `npx acacia`, they call `npx --no-install
 * acacia`; `acacia` not on the PATH (an alias to npx) is called the same way.
 */
function bash(): string {
  return `# acacia completion for bash: source <(acacia completion bash)
_acacia() {
  local -a cli words
  if [[ \${COMP_WORDS[0]} == npx ]]; then
    [[ \${COMP_WORDS[1]} == acacia ]] && (( COMP_CWORD >= 2 )) || return 0
    words=("\${COMP_WORDS[@]:2:COMP_CWORD-1}")
  else
    words=("\${COMP_WORDS[@]:1:COMP_CWORD}")
  fi
  cli=(npx --no-install acacia)
  [[ \${COMP_WORDS[0]} != npx ]] && type -P acacia >/dev/null && cli=(acacia)
  local IFS=$'\\n'
  COMPREPLY=($("\${cli[@]}" __complete "\${words[@]}" 2>/dev/null))
}
complete -F _acacia acacia
complete -o bashdefault -o default -F _acacia npx
`;
}

function zsh(): string {
  return `#compdef acacia
# acacia completion for zsh: source <(acacia completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash().split('\n').slice(1).join('\n')}`;
}

function fish(): string {
  return `# acacia completion for fish: acacia completion fish | source
function __acacia_complete
  set -l cur (commandline -ct)
  set -l words (commandline -opc) "$cur"
  if test "$words[1]" = npx
    test "$words[2]" = acacia; or return
    npx --no-install acacia __complete $words[3..-1] 2>/dev/null
  else if type -q acacia
    acacia __complete $words[2..-1] 2>/dev/null
  else
    npx --no-install acacia __complete $words[2..-1] 2>/dev/null
  end
end
complete -c acacia -f -a '(__acacia_complete)'
function __acacia_after_npx
  set -l words (commandline -opc)
  test (count $words) -ge 2; and test "$words[2]" = acacia
end
complete -c npx -n __acacia_after_npx -f -a '(__acacia_complete)'
`;
}

/** The options a command takes: its own and its ancestors' (the global ones are the program's). */
function optionsOf(cmd: Command): Option[] {
  const all: Option[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) all.push(...c.options.filter((o) => !o.hidden));
  return all;
}

const findOption = (cmd: Command, flag: string) =>
  optionsOf(cmd).find((o) => o.long === flag.split('=')[0] || o.short === flag);

const visible = (cmd: Command) => cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);

/** The names (and ids) the server knows for a kind of value; none when it cannot be asked. */
async function namesOf(kind: string, given: Record<string, string>, client: AcaciaClient): Promise<string[]> {
  switch (kind) {
    case 'workgroup': {
      const names: string[] = [];
      for await (const g of allWorkgroups(client)) names.push(g.name);
      return names;
    }
    case 'workspace': {
      const names: string[] = [];
      for await (const g of allWorkgroups(client))
        if (!given.workgroup || g.name === given.workgroup || g.workgroup_id === given.workgroup)
          names.push(...g.workspaces.map((w) => w.name));
      return names;
    }
    case 'backup': {
      const place = given.workspace ? await findWorkspace(client, given.workspace, given.workgroup) : undefined;
      const all: string[] = [];
      // Every backup of the workspace (or of every one): its tag where it has one, and its id.
      const places = place
        ? [place]
        : await (async () => {
            const found: Array<{ workgroupId: string; workspaceId: string }> = [];
            for await (const g of allWorkgroups(client))
              for (const w of g.workspaces) found.push({ workgroupId: w.workgroup_id, workspaceId: w.workspace_id });
            return found;
          })();
      for (const p of places) {
        const res = await client.backups.list(p.workgroupId, p.workspaceId);
        if (res.status === 200) for (const b of resultOf(res)) all.push(...(b.tag ? [b.tag] : []), b.id);
      }
      return all;
    }
    case 'database': {
      const names: string[] = [];
      for await (const g of allWorkgroups(client))
        if (!given.workgroup || g.name === given.workgroup || g.workgroup_id === given.workgroup)
          names.push(...resultOf(await client.databases.list(g.workgroup_id)).map((d) => d.name));
      return names;
    }
    case 'provider':
      return resultOf(await client.cloudProviders.list())
        .filter((p) => p.type === 'public')
        .map((p) => `${p.platform}/${p.region}`);
  }
  return [];
}

/** What a value of an option or an argument is, by its name: `-g` takes a workgroup. */
const VALUE_KINDS: Record<string, string> = {
  '--workgroup': 'workgroup',
  '--workspace': 'workspace',
  '--provider': 'provider',
  workgroup: 'workgroup',
  workspace: 'workspace',
  database: 'database',
  provider: 'provider',
  'backup-id': 'backup',
};

/**
 * What may come after `words` (the last one being the word being typed, maybe empty): a
 * subcommand, a flag, a flag's value (`-o` json…, `-g` the workgroups) or an argument (the
 * workspaces, a backup's tags and ids, `wait`'s kinds and then that kind's names).
 */
export async function completeWords(program: Command, words: readonly string[]): Promise<string[]> {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  let cmd = program;
  const positional: string[] = [];
  const given: Record<string, string> = {};
  for (let i = 0; i < before.length; i++) {
    const word = before[i]!;
    if (word.startsWith('-')) {
      const option = findOption(cmd, word);
      if (option && (option.required || option.optional) && !word.includes('=')) {
        given[option.attributeName()] = before[++i] ?? '';
      }
      continue;
    }
    const sub =
      positional.length === 0 ? visible(cmd).find((c) => c.name() === word || c.aliases().includes(word)) : undefined;
    if (sub) cmd = sub;
    else positional.push(word);
  }
  // Names come from the server the command line would talk to; none when there is none.
  const ask = async (kind: string | undefined): Promise<string[]> => {
    if (!kind) return [];
    try {
      const target = resolveTarget(given);
      const client = new AcaciaClient({ baseUrl: target.url, ...(target.apiKey ? { apiKey: target.apiKey } : {}) });
      return await namesOf(kind, given, client);
    } catch {
      return [];
    }
  };

  let candidates: string[];
  const last = before.at(-1);
  const valueOf = last?.startsWith('-') && !last.includes('=') ? findOption(cmd, last) : undefined;
  if (valueOf && (valueOf.required || valueOf.optional))
    candidates = valueOf.argChoices ?? (await ask(VALUE_KINDS[valueOf.long ?? '']));
  else if (current.startsWith('-'))
    candidates = [
      ...new Set(optionsOf(cmd).flatMap((o) => [o.long, o.short].filter((f): f is string => !!f))),
      '--help',
    ];
  else if (visible(cmd).length > 0 && positional.length === 0)
    candidates = visible(cmd).flatMap((c) => [c.name(), ...c.aliases()]);
  else {
    const arg: Argument | undefined = cmd.registeredArguments[positional.length];
    if (!arg) candidates = [];
    else if (arg.argChoices) candidates = arg.argChoices;
    // `acacia wait <kind> <name>`: the names of that kind.
    else if (cmd.name() === 'wait') candidates = await ask(positional[0]);
    else candidates = await ask(VALUE_KINDS[arg.name()]);
  }
  return [...new Set(candidates)].filter((c) => c.startsWith(current));
}

export function completionCommand(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script: source <(acacia completion bash)')
    .addArgument(new Argument('<shell>', 'the shell').choices(['bash', 'zsh', 'fish']))
    .action((shell: 'bash' | 'zsh' | 'fish') => {
      process.stdout.write({ bash, zsh, fish }[shell]());
    });
}
