import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dataPlaneCall, type DataPlaneReply } from '../../test/helpers/data-plane.js';
import { DATA_PLANE_SECRET_HEADER, startDataPlane, type DataPlaneProcess } from './index.js';

/** The admin endpoints pyTigerGraph's utility calls reach, on a real data-plane process. */

describe('admin endpoints: metrics, statistics, service status, rebuildnow', () => {
  let dir: string;
  let dp: DataPlaneProcess;
  const secret = randomBytes(16).toString('hex');

  const call = dataPlaneCall(() => dp.url, secret);
  function refused(r: DataPlaneReply, status: number, code: string, message: RegExp): void {
    assert.equal(r.status, status, JSON.stringify(r.json));
    assert.equal(r.json.error, true);
    assert.equal(r.json.code, code);
    assert.match(r.json.message, message);
  }

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-admin-'));
    dp = await startDataPlane({ storeFile: path.join(dir, 'graph.db'), secret });
    const res = await fetch(`${dp.url}/gsql/v1/statements`, {
      method: 'POST',
      headers: { [DATA_PLANE_SECRET_HEADER]: secret },
      body: 'CREATE VERTEX v (PRIMARY_ID id INT)\nCREATE GRAPH g (v)',
    });
    assert.equal(res.status, 200);
  });
  after(async () => {
    await dp?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers the 4.1+ system metrics with the process's own figures", async () => {
    const cpu = await call('POST', '/informant/metrics/get/cpu-memory', '{}');
    assert.equal(cpu.status, 200);
    const [m] = cpu.json.CPUMemoryMetrics;
    assert.equal(m.HostID, 'm1');
    assert.ok(m.Memory.MemoryUsageMB > 10, JSON.stringify(m));
    assert.ok(m.CPU.CPUUsage >= 0);
    const disk = (await call('POST', '/informant/metrics/get/diskspace', '{"LatestNum":"1"}')).json.DiskMetrics[0];
    assert.equal(disk.Disks[0].PathDescriptor.Path, dir);
    assert.ok(disk.Disks[0].FreeSizeMB > 0);
    assert.deepEqual((await call('POST', '/informant/metrics/get/network')).json, { NetworkMetrics: [] });
    await call('GET', '/restpp/graph/g/vertices/v');
    const qps = (await call('POST', '/informant/metrics/get/qps')).json.QPSMetrics;
    assert.ok(qps.some((q: { Endpoint: string }) => q.Endpoint === 'GET /restpp/graph/{graph}/vertices/{vtype}'));
    refused(await call('POST', '/informant/metrics/get/servicestate'), 404, 'REST-1000', /cpu-memory, diskspace/);
  });

  it('counts requests by endpoint for getQueryPerformance', async () => {
    await call('GET', '/restpp/graph/g/vertices/v');
    const stats = await call('GET', '/restpp/statistics/g?seconds=60');
    assert.equal(stats.status, 200);
    const list = stats.json['GET /restpp/graph/{graph}/vertices/{vtype}'];
    assert.ok(list.CompletedRequests >= 1, JSON.stringify(stats.json));
    assert.ok(list.MaxLatency >= list.MinLatency);
    assert.equal(list.TimeoutRequests, 0);
    refused(await call('GET', '/restpp/statistics/g?seconds=61'), 400, 'REST-30001', /'seconds'.*61/);
    refused(await call('GET', '/statistics/nograph'), 404, 'REST-1004', /'nograph'/);
  });

  it('reports the services asked for as Online', async () => {
    const one = await call(
      'POST',
      '/informant/current-service-status',
      '{"ServiceDescriptors":[{"ServiceName":"GSQL"}]}',
    );
    assert.equal(one.status, 200);
    assert.equal(one.json.ServiceStatusEvents.length, 1);
    assert.equal(one.json.ServiceStatusEvents[0].ServiceStatus, 'Online');
    assert.equal(one.json.ServiceStatusEvents[0].ServiceDescriptor.ServiceName, 'GSQL');
    const all = await call('POST', '/informant/current-service-status', '{}');
    assert.ok(all.json.ServiceStatusEvents.length > 5);
    refused(
      await call('POST', '/informant/current-service-status', '{"ServiceDescriptors":[{"ServiceName":"NOPE"}]}'),
      400,
      'REST-30000',
      /Unknown service name "NOPE"/,
    );
    refused(await call('POST', '/informant/current-service-status', '{'), 400, 'REST-2001', /not valid JSON/);
  });

  it('lists its endpoints, by kind as getEndpoints() asks', async () => {
    const all = await call('GET', '/restpp/endpoints/g');
    assert.equal(all.status, 200);
    for (const e of ['GET /endpoints/{graph_name}', 'POST /shortestpath/{graph_name}', 'GET /rebuildnow/{graph_name}'])
      assert.deepEqual(all.json[e], { parameters: {} }, e);
    assert.deepEqual((await call('GET', '/restpp/endpoints/g?builtin=true')).json, all.json);
    // No installed queries here, and no static endpoints.
    assert.deepEqual((await call('GET', '/restpp/endpoints/g?dynamic=true')).json, {});
    assert.deepEqual((await call('GET', '/restpp/endpoints/g?static=true')).json, {});
    refused(await call('GET', '/restpp/endpoints/g?dynamic=maybe'), 400, 'REST-30001', /dynamic/);
  });

  it('answers rebuildnow as TigerGraph does, for graphs that exist', async () => {
    const r = await call('GET', '/restpp/rebuildnow/g');
    assert.equal(r.status, 200);
    assert.equal(r.json.error, false);
    assert.equal(r.json.message, 'RebuildNow finished, please check details in the folder: /tmp/rebuildnow');
    refused(await call('GET', '/restpp/rebuildnow/nograph'), 404, 'REST-1004', /'nograph'/);
  });
});
