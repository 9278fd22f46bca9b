import type { Command } from 'commander';
import { apiCommand } from '../api-command.js';

/** `acacia metrics <workgroup> <workspace>`: a workspace's Prometheus text, as a scraper sees it. */
export function metricsCommands(program: Command): void {
  apiCommand(program, {
    verb: 'metrics',
    endpoint: 'workspaceMetrics',
    args: ['workgroupID', 'workspaceID'],
    description: "Print a workspace's metrics in Prometheus text format (docs/metrics.md)",
  });
}
