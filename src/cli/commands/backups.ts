import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';
import type { View } from '../output.js';

const view: View = {
  id: (b) => b.id,
  columns: [
    ['BACKUP_ID', (b) => b.id],
    ['STATUS', (b) => b.status],
    ['TAG', (b) => b.tag],
    ['AUTOMATIC', (b) => (b.is_automatic ? 'yes' : 'no')],
    ['SIZE_BYTES', (b) => b.size_bytes],
    ['TIME', (b) => b.time],
  ],
};

const scheduleView: View = {
  id: (s) => s.workspace_id,
  columns: [
    ['WORKSPACE_ID', (s) => s.workspace_id],
    ['SCHEDULE', (s) => s.schedule],
    ['KEEP', (s) => s.max_backup_files],
    ['DAYS', (s) => s.max_reserved_days],
    ['PAUSED', (s) => (s.pause ? 'yes' : 'no')],
    ['NEXT_RUN', (s) => s.next_run_at],
  ],
};

export function backupCommands(program: Command): void {
  apiGroup(
    program,
    'backups',
    'Manual and scheduled backups of read-write workspaces, and restores',
    [
      { verb: 'list', endpoint: 'listBackups', aliases: ['ls'] },
      { verb: 'create', endpoint: 'createBackup' },
      { verb: 'delete', endpoint: 'deleteBackup', bodyArgs: ['backup_id'], aliases: ['rm'] },
      { verb: 'restore', endpoint: 'restoreBackup', bodyArgs: ['backup_id'] },
      { verb: 'restore-status', endpoint: 'getBackupJobStatus', args: ['job'] },
    ],
    view,
  ).alias('backup');
  apiGroup(
    program,
    'backup-schedule',
    "A workspace's backup schedule",
    [
      { verb: 'get', endpoint: 'getWorkspaceBackupSchedule' },
      { verb: 'set', endpoint: 'setBackupSchedule' },
    ],
    scheduleView,
  );
}
