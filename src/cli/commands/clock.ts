import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = { id: (c) => c.now, columns: [['NOW', (c) => c.now]] };

/**
 * The manual clock of a server started with ACACIA_CLOCK=manual: a CI job moves it to make
 * schedules, expiries and simulated work fall due, as a test does through the client.
 */
export function clockCommands(program: Command): void {
  apiGroup(
    program,
    'clock',
    'The manual clock (servers with ACACIA_CLOCK=manual, for org-admin keys)',
    [{ verb: 'move', endpoint: 'moveTestClock', aliases: ['advance'] }],
    view,
  );
}
