import type { Command } from 'commander';
import { apiCommand } from '../api-command.js';
import { fields } from '../output.js';

/** The commands that act on the whole instance (docs/testing.md, docs/snapshots.md). */
export function instanceCommands(program: Command): void {
  apiCommand(program, {
    verb: 'reset',
    endpoint: 'resetInstance',
    description:
      'Empty the instance but for its bootstrap organisation and key (test mode only: ACACIA_CLOCK=manual ' +
      'or ACACIA_FAULT_INJECTION=on)',
    view: fields('now'),
  });
}
