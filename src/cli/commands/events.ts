import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = {
  id: (e) => String(e.event_id),
  columns: [
    ['EVENT_ID', (e) => String(e.event_id)],
    ['TIME', (e) => e.time],
    ['TYPE', (e) => e.type],
    ['RESOURCE_ID', (e) => e.resource_id],
    ['WORKGROUP_ID', (e) => e.workgroup_id],
  ],
};

export function eventCommands(program: Command): void {
  apiGroup(
    program,
    'events',
    "The organisation's changes, a page at a time (docs/events.md)",
    [{ verb: 'list', endpoint: 'listEvents', aliases: ['ls'] }],
    view,
  ).alias('event');
}
