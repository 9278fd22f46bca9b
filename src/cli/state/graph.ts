import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { StateGraph } from '../../schemas/state-file.js';
import { StateFileError } from './file.js';

/** A graph section's files, read and checked before anything is changed. */
export interface GraphInput {
  gsql?: string;
  loads: Array<{ graph: string; body: string }>;
}

/** Reads the files a graph section names (relative to the state file); a problem names its field. */
export function readGraphInput(graph: StateGraph, source: string, at: string): GraphInput {
  const dir = path.dirname(source);
  const read = (file: string, field: string) => {
    try {
      return readFileSync(path.resolve(dir, file), 'utf8');
    } catch (err) {
      throw new StateFileError(source, field, `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
  };
  const loads = (graph.load ?? []).map((l, i) => {
    const field = `${at}.load[${i}].file`;
    const body = read(l.file, field);
    try {
      JSON.parse(body);
    } catch {
      throw new StateFileError(source, field, `${l.file} is not JSON (a REST++ upsert body)`);
    }
    return { graph: l.graph, body };
  });
  return { ...(graph.gsql !== undefined ? { gsql: read(graph.gsql, `${at}.gsql`) } : {}), loads };
}

/** What the data plane appends to the output of GSQL that failed. */
const FAILED_GSQL = /__GSQL__RETURN__CODE__,([1-9]\d*)/;

/**
 * Loads a graph section into a workspace through the gateway, as one of its db users: the
 * GSQL file first (as `gsql` would send it), then each upsert body to REST++.
 */
export async function loadGraph(
  gatewayUrl: string,
  workspaceId: string,
  credentials: { username: string; password: string },
  input: GraphInput,
  where: string,
): Promise<void> {
  const base = `${gatewayUrl}/w/${workspaceId}`;
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  const post = async (url: string, body: string) => {
    const res = await fetch(url, { method: 'POST', headers: { authorization }, body });
    return { status: res.status, text: await res.text() };
  };
  if (input.gsql !== undefined) {
    const res = await post(`${base}/gsql/v1/statements`, input.gsql);
    if (res.status !== 200 || FAILED_GSQL.test(res.text))
      throw new Error(`${where}: the GSQL file failed (HTTP ${res.status}): ${res.text.split('\n__GSQL__')[0]}`);
  }
  for (const load of input.loads) {
    const res = await post(`${base}/restpp/graph/${encodeURIComponent(load.graph)}`, load.body);
    let answer: { error?: boolean; message?: string };
    try {
      answer = JSON.parse(res.text) as typeof answer;
    } catch {
      answer = { error: true, message: res.text };
    }
    if (res.status !== 200 || answer.error)
      throw new Error(
        `${where}: loading into graph ${load.graph} failed (HTTP ${res.status}): ${answer.message ?? res.text}`,
      );
  }
}
