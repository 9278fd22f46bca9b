import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { StateFile } from '../../schemas/state-file.js';
import { contextOf, outputOf, type GlobalOptions } from '../context.js';
import { table } from '../output.js';
import {
  applyState,
  exportState,
  hasChanges,
  planReport,
  readLiveState,
  readState,
  stateYaml,
} from '../state/index.js';
import type { Plan } from '../state/plan.js';

function planTable(plan: Plan): string {
  if (!hasChanges(plan) && plan.summary.skip === 0) return 'No changes. The server matches the file.';
  const rows = plan.changes.map((c) => [c.action, c.kind, c.name, c.detail ?? '']);
  const s = plan.summary;
  return (
    `${table(['ACTION', 'KIND', 'NAME', 'DETAIL'], rows)}\n` +
    `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.unchanged} unchanged` +
    `${s.skip ? `, ${s.skip} skipped` : ''}.${hasChanges(plan) ? '' : ' No changes.'}`
  );
}

/** `acacia export` and `acacia apply`: the organisation's state as a file (docs/state-files.md). */
export function stateCommands(program: Command): void {
  program
    .command('export')
    .description("Write the organisation's state as a YAML state file (docs/state-files.md)")
    .addOption(new Option('-f, --file <path>', 'write to this file instead of stdout'))
    .addOption(new Option('--schema', "print the state file's JSON Schema instead"))
    .action(async (opts: { file?: string; schema?: boolean }, cmd: Command) => {
      if (opts.schema) {
        outputOf(cmd).out(JSON.stringify(StateFile, null, 2));
        return;
      }
      const ctx = contextOf(cmd);
      const state = exportState(await readLiveState(ctx.client));
      // YAML unless JSON is asked for by name (-o json); apply reads either.
      const asJson = cmd.optsWithGlobals<GlobalOptions>().output === 'json';
      const text = asJson ? `${JSON.stringify(state, null, 2)}\n` : stateYaml(state);
      if (opts.file) writeFileSync(opts.file, text);
      else process.stdout.write(text);
    });

  program
    .command('apply')
    .description('Make the server match a state file: plan, print the plan, apply it (docs/state-files.md)')
    .requiredOption('-f, --file <path>', 'the state file (YAML)')
    .addOption(new Option('--dry-run', 'only print the plan'))
    .addOption(new Option('--prune', 'delete what the file does not name (in the sections it lists)'))
    .action(async (opts: { file: string; dryRun?: boolean; prune?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const file = readState(opts.file);
      const json = ctx.format !== 'table';
      const plan = await applyState(ctx.client, file, {
        source: opts.file,
        prune: opts.prune === true,
        dryRun: opts.dryRun === true,
        onPlan: (p) => {
          if (!json) ctx.out(planTable(p));
        },
        progress: (c) => ctx.note(`${c.action} ${c.kind} ${c.name}`),
      });
      if (!json && !opts.dryRun && hasChanges(plan)) ctx.out('Applied.');
      if (json) {
        const report = planReport(plan, { dry_run: opts.dryRun === true, applied: !opts.dryRun && hasChanges(plan) });
        ctx.out(ctx.format === 'yaml' ? stateYaml(report as never) : JSON.stringify(report, null, 2));
      }
    });
}
