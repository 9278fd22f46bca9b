import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDataPlane, type DataPlaneProcess } from '../src/dataplane/index.js';
import { dataPlaneCall } from './helpers/data-plane.js';

/** The GSQL server's schema-vertex, UDF-file and catalog-recovery endpoints, as TigerGraph clients call them. */
describe('data plane: GSQL server endpoints for global vertex types, UDF files and catalog recovery', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-dp-gsql-endpoints-'));
  const secret = randomBytes(16).toString('hex');
  let dp: DataPlaneProcess;
  const call = dataPlaneCall(() => dp.url, secret);
  const vertexNames = async (graph: string) =>
    (await call('GET', `/gsql/v1/schema?graph=${graph}`)).json.results.VertexTypes.map((v: { Name: string }) => v.Name);

  before(async () => {
    dp = await startDataPlane({ storeFile: path.join(dir, 'g.db'), readOnly: false, secret, tgVersion: '4.2.1' });
    const r = await call('POST', '/gsql/v1/statements', 'CREATE GRAPH g()');
    assert.match(r.text, /The graph g is created/);
  });
  after(async () => {
    await dp.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates global vertex types from CREATE VERTEX statements, all or none', async () => {
    const one = await call('POST', '/gsql/v1/schema/vertices?gsql=true', {
      gsql: ['CREATE VERTEX a (PRIMARY_ID id UINT)'],
    });
    assert.equal(one.status, 200);
    assert.deepEqual(one.json, { error: false, message: 'Successfully created vertex types: [a].' });
    const bad = await call('POST', '/gsql/v1/schema/vertices?gsql=true', {
      gsql: ['CREATE VERTEX b (PRIMARY_ID id UINT)', 'INVALID COMMAND'],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error, true);
    assert.equal(bad.json.code, 'REST-30000');
    assert.match(bad.json.message, /INVALID COMMAND/);
    const again = await call('POST', '/gsql/v1/schema/vertices?gsql=true', {
      gsql: 'CREATE VERTEX a (PRIMARY_ID id INT)',
    });
    assert.equal(again.status, 400);
    assert.equal(again.json.code, 'REST-30000');
    const schema = await call('GET', '/gsql/v1/schema/graphs/g');
    assert.equal(schema.status, 200);
    assert.deepEqual(await vertexNames('g'), [], 'global types are in no graph until added');
    const missingBody = await call('POST', '/gsql/v1/schema/vertices?gsql=true', { other: 1 });
    assert.equal(missingBody.status, 400);
    assert.equal(missingBody.json.code, 'REST-30000');
  });

  it('creates global vertex types from their schema JSON', async () => {
    const r = await call('POST', '/gsql/v1/schema/vertices', {
      createVertices: [
        {
          Name: 'j',
          PrimaryId: { AttributeName: 'user_id', AttributeType: { Name: 'UINT' } },
          Attributes: [
            { AttributeName: 'name', AttributeType: { Name: 'STRING' } },
            { AttributeName: 'tags', AttributeType: { Name: 'SET', ValueTypeName: 'STRING' } },
          ],
          Config: { STATS: 'OUTDEGREE_BY_EDGETYPE' },
        },
      ],
    });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.error, false);
    const noKey = await call('POST', '/gsql/v1/schema/vertices', { createVertices: { Name: 'k' } });
    assert.equal(noKey.status, 400);
    assert.equal(noKey.json.code, 'REST-30000');
    assert.match(noKey.json.message, /k: PrimaryId is required/);
    const notJson = await call('POST', '/gsql/v1/schema/vertices', '{');
    assert.equal(notJson.status, 400);
    assert.equal(notJson.json.error, true);
  });

  it('adds global vertex types to a graph, takes them out, and drops them', async () => {
    const add = await call('POST', '/gsql/v1/schema/vertices?graph=g', { addVertices: ['a', 'j'] });
    assert.equal(add.status, 200, add.text);
    assert.deepEqual((await vertexNames('g')).sort(), ['a', 'j']);
    const twice = await call('POST', '/gsql/v1/schema/vertices?graph=g', { addVertices: 'a' });
    assert.equal(twice.status, 400);
    assert.equal(twice.json.code, 'REST-30000');
    const noGraph = await call('POST', '/gsql/v1/schema/vertices', { addVertices: ['a'] });
    assert.equal(noGraph.status, 400);
    assert.equal(noGraph.json.code, 'REST-30001');
    const inUse = await call('DELETE', '/gsql/v1/schema/vertices?vertex=a');
    assert.equal(inUse.status, 400);
    assert.equal(inUse.json.code, 'REST-30000');
    assert.match(inUse.json.message, /used by the graph g/);
    const out = await call('DELETE', '/gsql/v1/schema/vertices?vertex=a,j&graph=g');
    assert.equal(out.status, 200, out.text);
    assert.deepEqual(await vertexNames('g'), []);
    const drop = await call('DELETE', '/gsql/v1/schema/vertices?vertex=a,j');
    assert.equal(drop.status, 200, drop.text);
    const gone = await call('DELETE', '/gsql/v1/schema/vertices?vertex=a');
    assert.equal(gone.status, 400);
    assert.equal(gone.json.code, 'REST-30000');
    assert.match(gone.json.message, /The vertex type a does not exist/);
  });

  it('serves the UDF files by name, in both API versions, and answers catalog recovery', async () => {
    for (const p of ['/gsql/v1/udt/files/ExprFunctions', '/gsqlserver/gsql/userdefinedfunction?filename=ExprUtil']) {
      const r = await call('GET', p);
      assert.equal(r.status, 200);
      assert.equal(r.json.error, false);
      assert.match(r.json.results, /^\/\/ Expr(Functions|Util)\.hpp/);
    }
    const other = await call('GET', '/gsql/v1/udt/files/constructor');
    assert.equal(other.status, 400);
    assert.equal(other.json.code, 'REST-30001');
    const recover = await call('POST', '/gsql/v1/schema/recover');
    assert.equal(recover.status, 200);
    assert.equal(recover.json.error, false);
    assert.equal(typeof recover.json.message, 'string');
  });
});
