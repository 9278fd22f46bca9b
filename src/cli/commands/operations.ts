import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = {
  id: (o) => o.id,
  columns: [
    ['OPERATION_ID', (o) => o.id],
    ['KIND', (o) => o.kind],
    ['RESOURCE_ID', (o) => o.resource_id],
    ['STATE', (o) => o.state],
    ['ATTEMPT', (o) => `${o.attempt as number}/${o.max_attempts as number}`],
    ['CREATED_AT', (o) => o.created_at],
    ['ERROR', (o) => o.error],
  ],
};

export function operationCommands(program: Command): void {
  apiGroup(
    program,
    'operations',
    'Asynchronous changes and how they ended',
    [
      { verb: 'list', endpoint: 'listOperations', aliases: ['ls'] },
      { verb: 'get', endpoint: 'getOperation', args: ['id'] },
    ],
    view,
  ).alias('operation');
}
