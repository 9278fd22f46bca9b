import { Option, type Command } from 'commander';
import { resultOf, type AcaciaClient, type ApiResponse, type RequestOptions } from '../client/index.js';
import { apiEndpoints, type EndpointId, type EndpointSpec } from '../schemas/endpoints/index.js';
import { contextOf, type Context } from './context.js';
import { UsageError } from './exit-codes.js';
import { followChange, parseDuration } from './follow.js';
import { render, type View } from './output.js';
import { findBackup, findDatabase, findProvider, findWorkgroup, findWorkspace } from './resolve.js';
import { addSchemaFlags, readBody, resolveRef, valuesOf } from './schema-flags.js';

/** One command of a resource group: a verb and the endpoint of the table it calls. */
export interface CommandSpec {
  verb: string;
  endpoint: EndpointId;
  /** Help text; the endpoint's summary by default. */
  description?: string;
  /** Path parameters taken as positional arguments, in order; the others are options (--workgroup, --workspace). */
  args?: readonly string[];
  /** Body fields taken as positional arguments, after the path's. */
  bodyArgs?: readonly string[];
  /** Query values the command sends unless a flag says otherwise. */
  query?: Record<string, string>;
  view?: View;
  aliases?: readonly string[];
  /** Body fields in seconds taken as a duration flag: `{ expires_in_seconds: 'expires-in' }` is `--expires-in 2h`. */
  durations?: Record<string, string>;
}

/** How each path parameter is named on the command line. */
const pathParams: Record<string, { name: string; option?: string; help: string }> = {
  workgroupID: { name: 'workgroup', option: '-g, --workgroup <workgroup>', help: 'workgroup id or name' },
  workspaceID: { name: 'workspace', option: '-w, --workspace <workspace>', help: 'workspace id or name' },
  databaseID: { name: 'database', help: 'database id or name' },
  scheduleID: { name: 'schedule', help: 'schedule id' },
  id: { name: 'id', help: 'id' },
  cloudProviderID: { name: 'provider', help: 'cloud provider: platform/region (aws/us-east-1), id, short id or name' },
  addonsID: { name: 'addon', help: 'add-on id' },
  installedAddonsID: { name: 'installed-addon', help: 'installed add-on id' },
  configName: { name: 'config-name', help: 'configuration name' },
  configID: { name: 'config-id', help: 'configuration id' },
  key_name: { name: 'key-name', help: 'API key name' },
  jobID: { name: 'job', help: 'restore job id' },
  job: { name: 'job', help: 'restore job id' },
  webhook_id: { name: 'webhook', help: 'webhook id' },
  cardID: { name: 'card', help: 'payment card id' },
  userId: { name: 'user', help: 'user id' },
};

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
const pathNames = (endpoint: EndpointSpec) => [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** The client's method for an endpoint (`workspaces.create` → client.workspaces.create). */
function methodOf(client: AcaciaClient, endpoint: EndpointSpec) {
  const [group, name] = endpoint.client.includes('.') ? endpoint.client.split('.') : [undefined, endpoint.client];
  const owner = (group ? (client as unknown as Record<string, unknown>)[group] : client) as Record<string, unknown>;
  return owner[name!] as (...args: unknown[]) => Promise<ApiResponse<unknown>>;
}

/**
 * Turns what the user typed for the path (ids or names) into ids: a workspace named without
 * its workgroup is looked for in every workgroup, and brings its workgroup along.
 */
async function resolvePath(ctx: Context, names: readonly string[], given: Record<string, string | undefined>) {
  const ids: Record<string, string> = {};
  if (names.includes('workspaceID') && given.workspaceID !== undefined) {
    const found = await findWorkspace(ctx.client, given.workspaceID, given.workgroupID);
    ids.workspaceID = found.workspaceId;
    ids.workgroupID = found.workgroupId;
  }
  for (const name of names) {
    if (ids[name] !== undefined) continue;
    const value = given[name];
    if (value === undefined) {
      const p = pathParams[name]!;
      throw new UsageError(`--${p.name} is required (${p.help})`);
    }
    if (name === 'workgroupID') ids[name] = (await findWorkgroup(ctx.client, value)).workgroup_id;
    else if (name === 'databaseID') ids[name] = await findDatabase(ctx.client, value, ids.workgroupID!);
    else if (name === 'cloudProviderID') ids[name] = (await findProvider(ctx.client, value)).id;
    else ids[name] = value;
  }
  return ids;
}

/** The cursor of the next page of a paginated answer, said on stderr so stdout stays the result. */
function noteNextPage(ctx: Context, res: ApiResponse<unknown>) {
  const next = res.headers['x-next-cursor'];
  if (typeof next === 'string' && next) ctx.note(`more: --cursor ${next}`);
}

/** The command that calls each endpoint (`acacia workspaces pause <workspace>`), as built. */
export const commandOf = new Map<EndpointId, string>();

/** Adds one command to `group`, built from its endpoint's declaration in the table. */
export function apiCommand(group: Command, spec: CommandSpec): Command {
  const endpoint: EndpointSpec = apiEndpoints[spec.endpoint];
  const names = pathNames(endpoint);
  const positional = spec.args ?? [];
  const cmd = group.command(spec.verb).description(spec.description ?? endpoint.summary);
  for (const alias of spec.aliases ?? []) cmd.alias(alias);
  for (const name of positional) cmd.argument(`<${pathParams[name]!.name}>`, pathParams[name]!.help);
  for (const field of spec.bodyArgs ?? [])
    cmd.argument(
      `<${field.replace(/_/g, '-')}>`,
      field === 'backup_id' ? 'backup id or tag' : field.replace(/_/g, ' '),
    );
  for (const name of names.filter((n) => !positional.includes(n))) {
    const p = pathParams[name]!;
    cmd.addOption(new Option(p.option ?? `--${p.name} <${p.name}>`, p.help));
  }
  const bodySchema = endpoint.body
    ? (resolveRef(endpoint.body) as { properties?: Record<string, unknown> })
    : undefined;
  const fillsWorkspace = !!bodySchema?.properties?.workspace_id && names.includes('workspaceID');
  const bodyFlags = endpoint.body
    ? addSchemaFlags(cmd, endpoint.body, [
        ...(spec.bodyArgs ?? []),
        ...(fillsWorkspace ? ['workspace_id'] : []),
        ...Object.keys(spec.durations ?? {}),
      ])
    : [];
  for (const [field, flag] of Object.entries(spec.durations ?? {}))
    cmd.option(`--${flag} <duration>`, `${field.replace(/_/g, ' ')} as a duration: 90s, 10m, 2h`, parseDuration);
  const takesProvider = !!bodySchema?.properties?.cloud_provider_id;
  if (takesProvider) cmd.option('--provider <provider>', 'cloud provider: platform/region (aws/us-east-1), id or name');
  if (endpoint.body)
    cmd.option('--body <json>', 'the request body as JSON, @file or - (stdin); flags override its fields');
  const queryFlags = endpoint.query ? addSchemaFlags(cmd, endpoint.query) : [];
  if (endpoint.ifMatch) cmd.option('--if-match <version>', 'apply only to this version_number (412 otherwise)', Number);
  const parents: string[] = [];
  for (let c: Command | null = group; c && c.parent; c = c.parent) parents.unshift(c.name());
  commandOf.set(
    spec.endpoint,
    [...parents, spec.verb, ...cmd.registeredArguments.map((a) => `<${a.name()}>`)].join(' '),
  );
  if (endpoint.follow) {
    cmd.option('--wait', 'follow the change to its end, showing its state; exit non-zero when it fails');
    cmd.option('--timeout <duration>', 'with --wait: give up after this long (90s, 10m, 1h)', parseDuration, 600_000);
  }

  cmd.action(async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const opts = command.opts<Record<string, unknown>>();
    const ctx = contextOf(command);
    const values = args.slice(0, positional.length + (spec.bodyArgs?.length ?? 0)) as string[];
    const given: Record<string, string | undefined> = {};
    for (const name of names) given[name] = opts[camel(pathParams[name]!.name)] as string | undefined;
    positional.forEach((name, i) => (given[name] = values[i]));
    const ids = await resolvePath(ctx, names, given);

    const call: unknown[] = names.map((n) => ids[n]);
    if (endpoint.body) {
      const body = valuesOf(bodyFlags, opts, readBody(opts.body as string | undefined)) as Record<string, unknown>;
      for (const [i, field] of (spec.bodyArgs ?? []).entries()) {
        const value = values[positional.length + i]!;
        // A backup is named by id or by tag, among the workspace's backups.
        body[field] =
          field === 'backup_id' && ids.workspaceID
            ? (await findBackup(ctx.client, value, { workgroupId: ids.workgroupID!, workspaceId: ids.workspaceID }))
                .backup.id
            : value;
      }
      for (const [field, flag] of Object.entries(spec.durations ?? {})) {
        const ms = opts[camel(flag)] as number | undefined;
        if (ms !== undefined) body[field] = Math.ceil(ms / 1000);
      }
      if (fillsWorkspace) body.workspace_id ??= ids.workspaceID;
      if (takesProvider && opts.provider !== undefined)
        body.cloud_provider_id = (await findProvider(ctx.client, opts.provider as string)).id;
      call.push(body);
    }
    if (endpoint.query) call.push({ ...spec.query, ...valuesOf(queryFlags, opts) });
    const options: RequestOptions = opts.ifMatch !== undefined ? { ifMatch: opts.ifMatch as number } : {};
    const res = await methodOf(ctx.client, endpoint)(...call, options);
    const result = resultOf(res);
    if (endpoint.paginated) noteNextPage(ctx, res);
    // Text (Prometheus metrics) is printed as it came, whatever the output format.
    if (endpoint.produces && typeof result === 'string') return ctx.out(result.replace(/\n$/, ''));
    if (!opts.wait) return render(ctx, result, spec.view);
    const final = await followChange(
      ctx,
      {
        follow: endpoint.follow!,
        result,
        ...(ids.workgroupID ? { workgroupId: ids.workgroupID } : {}),
        ...(ids.workspaceID ? { workspaceId: ids.workspaceID } : {}),
        deleting: endpoint.method === 'DELETE',
      },
      opts.timeout as number,
    );
    render(ctx, final, endpoint.follow === 'operation' ? undefined : spec.view);
  });
  return cmd;
}

/** A command group (`acacia workspaces …`) with its commands. */
export function apiGroup(
  program: Command,
  name: string,
  description: string,
  specs: readonly CommandSpec[],
  view?: View,
): Command {
  const group = program.command(name).description(description);
  for (const spec of specs) apiCommand(group, { ...(view ? { view } : {}), ...spec });
  return group;
}
