import assert from 'node:assert/strict';
import { resultOf, type AcaciaClient, type WorkspaceRecord } from '../../src/client/index.js';
import type { CreateWorkspaceBody } from '../../src/schemas/workspace.js';
import { publicProvider } from './server.js';

/** A fresh workgroup on the aws us-east-1 public provider. */
export async function newWorkgroup(client: AcaciaClient, name?: string): Promise<string> {
  const provider = await publicProvider(client);
  return resultOf(await client.workgroups.create({ cloud_provider_id: provider, ...(name ? { name } : {}) }))
    .workgroup_id;
}

/** Polls until the workspace reaches `status` and returns it; fails the test otherwise. */
export async function waitForStatus(
  client: AcaciaClient,
  wg: string,
  ws: string,
  status: string,
): Promise<WorkspaceRecord> {
  const last = await client.waitForWorkspace(wg, ws, (w) => w.status === status);
  assert.equal(last?.status, status, `workspace ${ws} did not reach ${status}: ${JSON.stringify(last)}`);
  return last!;
}

/** Creates a workspace and waits for it to be Active (needs ACACIA_SIM_SPEED=0). */
export async function activeWorkspace(
  client: AcaciaClient,
  wg: string,
  body: CreateWorkspaceBody = {},
): Promise<WorkspaceRecord> {
  const ws = resultOf(await client.workspaces.create(wg, body));
  return waitForStatus(client, wg, ws.workspace_id!, 'Active');
}

/**
 * A weekly maintenance window (UTC) that opens a day after the server's manual clock. A test
 * that lets an upgrade wait for its window uses it: the default window, Sunday 02:00 UTC,
 * holds the clock (which starts at the wall time) one hour a week, and in it an upgrade
 * "scheduled" runs at once.
 */
export async function windowTomorrow(client: AcaciaClient) {
  const now = Date.parse(resultOf(await client.moveClock({ advance_seconds: 0 })).now);
  const opens = new Date(now + 24 * 3_600_000);
  return {
    maintenance_window_day_of_week: opens.getUTCDay(),
    maintenance_window_hour_of_day: opens.getUTCHours(),
    maintenance_window_time_zone: 'UTC',
  } satisfies CreateWorkspaceBody;
}

/** Waits until the workspace is gone (GET answers 404). */
export async function waitForDeletion(client: AcaciaClient, wg: string, ws: string): Promise<void> {
  const last = await client.waitForWorkspace(wg, ws, () => false, { attempts: 200 });
  assert.equal(last, undefined, `workspace ${ws} was not deleted: ${JSON.stringify(last)}`);
}
