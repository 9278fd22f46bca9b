import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

/** `-q` of a new webhook prints its signing secret: the one value of it that is never shown again. */
const view: View = {
  id: (w) => w.signing_secret ?? w.webhook_id,
  columns: [
    ['WEBHOOK_ID', (w) => w.webhook_id],
    ['URL', (w) => w.url],
    ['EVENT_TYPES', (w) => (Array.isArray(w.event_types) ? w.event_types.join(',') : 'all')],
    ['CREATED_AT', (w) => w.created_at],
  ],
};

const deliveries: View = {
  id: (d) => String(d.event_id),
  columns: [
    ['EVENT_ID', (d) => String(d.event_id)],
    ['TYPE', (d) => d.event_type],
    ['STATE', (d) => d.state],
    ['ATTEMPTS', (d) => String(d.attempts)],
    ['STATUS', (d) => (d.last_status_code === undefined ? undefined : String(d.last_status_code))],
    ['NEXT_ATTEMPT_AT', (d) => d.next_attempt_at],
    ['LAST_ERROR', (d) => d.last_error],
  ],
};

export function webhookCommands(program: Command): void {
  apiGroup(
    program,
    'webhooks',
    "Where the organisation's events are POSTed (for org-admin keys; docs/events.md)",
    [
      { verb: 'list', endpoint: 'listWebhooks', aliases: ['ls'] },
      { verb: 'create', endpoint: 'createWebhook', bodyArgs: ['url'] },
      { verb: 'get', endpoint: 'getWebhook', args: ['webhook_id'] },
      { verb: 'delete', endpoint: 'deleteWebhook', args: ['webhook_id'], aliases: ['rm'] },
      { verb: 'deliveries', endpoint: 'listWebhookDeliveries', args: ['webhook_id'], view: deliveries },
    ],
    view,
  ).alias('webhook');
}
