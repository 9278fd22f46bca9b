import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = {
  id: (s) => s.id,
  columns: [
    ['SCHEDULE_ID', (s) => s.id],
    ['ACTION', (s) => s.action],
    ['REPEAT', (s) => s.repeat],
    ['TIME', (s) => `${s.time as string} ${s.timezone as string}`],
    ['SIZE', (s) => s.workspace_type_name],
    ['NEXT_RUN', (s) => s.next_run_at],
  ],
};

export function scheduleCommands(program: Command): void {
  apiGroup(
    program,
    'schedules',
    'Timed resizes, pauses and resumes of a workspace',
    [
      { verb: 'list', endpoint: 'listSchedules', aliases: ['ls'] },
      { verb: 'get', endpoint: 'getSchedule', args: ['scheduleID'] },
      { verb: 'create', endpoint: 'createSchedule' },
      { verb: 'update', endpoint: 'updateSchedule', args: ['scheduleID'] },
      { verb: 'delete', endpoint: 'deleteSchedule', args: ['scheduleID'], aliases: ['rm'] },
    ],
    view,
  ).alias('schedule');
}
