/**
 * Closed vocabularies of the records, here (not in the domain) so the schemas, and the typed
 * client built on them, load without the domain and the store. The domain re-exports them.
 */

/** Workspace `status` values (DESIGN §7). */
export const workspaceStatuses = [
  'Creating',
  'Active',
  'Pausing',
  'Stopped',
  'Idle',
  'Resuming',
  'Updating',
  'Restoring',
  'Refreshing',
  'Deleting',
  'Failed',
] as const;
export type WorkspaceStatus = (typeof workspaceStatuses)[number];

/** The statuses no operation is under way in. */
export const stableStatuses: readonly WorkspaceStatus[] = ['Active', 'Stopped', 'Idle', 'Failed'];

/** Human labels for `display_status`. */
export const displayStatus: Record<WorkspaceStatus, string> = {
  Creating: 'Creating',
  Active: 'Ready',
  Pausing: 'Stopping',
  Stopped: 'Stopped',
  Idle: 'Idle (starts on access)',
  Resuming: 'Starting',
  Updating: 'Updating',
  Restoring: 'Restoring',
  Refreshing: 'Refreshing',
  Deleting: 'Deleting',
  Failed: 'Failed',
};

export const repeats = ['daily', 'weekly', 'weekdays', 'once'] as const;
export type Repeat = (typeof repeats)[number];
export const scheduleActions = ['resize', 'pause', 'resume'] as const;
export type ScheduleAction = (typeof scheduleActions)[number];
