import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dataPlaneCall } from './helpers/data-plane.js';
import { startDataPlane, type DataPlaneProcess } from '../src/dataplane/index.js';

/**
 * A setup script in the shape of a TigerGraph client's own (shell forms, tuples, a local
 * schema change job, GSQL upserts) sent whole to a data-plane process, then the schema and
 * the data read back over HTTP as clients read them.
 */

const script = `SET exit_on_error = FALSE
DROP GRAPH shop CASCADE

CREATE GRAPH shop()

BEGIN
TYPEDEF TUPLE <
    qty    INT(4)
  , label  STRING(8)
  , at     DATETIME
> line_item
END

BEGIN
CREATE SCHEMA_CHANGE JOB build {
    ADD VERTEX basket (
        PRIMARY_ID id STRING
      , code      FIXED_BINARY(8)
      , first     line_item
      , lines     LIST<line_item>
      , scores    LIST<DOUBLE>
      , tags      SET<STRING>
      , by_day    MAP<DATETIME, INT>
      , by_name   MAP<STRING, line_item>
    );
    ADD VERTEX shelf (
        aisle INT
      , side  STRING
      , since DATETIME
      , PRIMARY KEY (aisle, side, since)
    );
    ADD VERTEX clerk (id INT PRIMARY KEY, name STRING);
    ADD VERTEX store_v (PRIMARY_ID id INT, city STRING) WITH primary_id_as_attribute="true";
    ADD DIRECTED EDGE stocked_on (FROM basket, TO shelf | FROM clerk, TO shelf, n INT)
      WITH REVERSE_EDGE="holds";
    ADD DIRECTED EDGE seen (FROM *, TO *);
    ADD UNDIRECTED EDGE same_store (FROM store_v, TO store_v);
}
END

RUN SCHEMA_CHANGE JOB build

UPSERT clerk VALUES(7, "Ana")
UPSERT store_v VALUES(1, "Oslo")
UPSERT store_v -(same_store)-> store_v VALUES (1, 2)
UPSERT clerk -(stocked_on)-> shelf VALUES (7, "3,left,2024-05-01 00:00:00", 4)

BEGIN
CREATE OR REPLACE QUERY clerks() FOR GRAPH shop {
  PRINT "a query of the graph";
}
END
`;

describe('data plane: a TigerGraph-style setup script and the schema it makes', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-dp-schema-'));
  const secret = randomBytes(16).toString('hex');
  let dp: DataPlaneProcess;
  const call = dataPlaneCall(() => dp.url, secret);

  before(async () => {
    dp = await startDataPlane({ storeFile: path.join(dir, 'g.db'), readOnly: false, secret, tgVersion: '4.1.3' });
  });
  after(async () => {
    await dp.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs the script: only the missing graph is refused, and the rest runs past it', async () => {
    const r = await call('POST', '/gsql/v1/statements', script);
    assert.equal(r.status, 200);
    const refusals = r.text.split('\n').filter((l) => l.startsWith('Semantic Check Fails'));
    assert.equal(refusals.length, 1, r.text);
    assert.match(refusals[0]!, /The graph shop does not exist/);
    assert.match(r.text, /Local schema change succeeded\./);
    // Run again: DROP GRAPH … CASCADE clears the graph's own types, tuples and jobs first.
    const again = await call('POST', '/gsql/v1/statements', script);
    assert.equal(again.text.split('\n').filter((l) => l.startsWith('Semantic Check Fails')).length, 0, again.text);
  });

  it('serves the schema JSON and the tuples', async () => {
    const schema = await call('GET', '/gsql/v1/schema?graph=shop');
    assert.equal(schema.status, 200);
    const basket = schema.json.results.VertexTypes.find((v: { Name: string }) => v.Name === 'basket');
    assert.equal(basket.IsLocal, true);
    const types = Object.fromEntries(
      basket.Attributes.map((a: { AttributeName: string; AttributeType: unknown }) => [
        a.AttributeName,
        a.AttributeType,
      ]),
    );
    assert.deepEqual(types.lines, { Name: 'LIST', ValueTypeName: 'UDT', ValueTypeTupleName: 'line_item' });
    assert.deepEqual(types.by_day, { Name: 'MAP', KeyTypeName: 'DATETIME', ValueTypeName: 'INT' });
    assert.deepEqual(types.code, { Name: 'FIXED_BINARY', FixedSize: 8 });
    const seen = schema.json.results.EdgeTypes.find((e: { Name: string }) => e.Name === 'seen');
    assert.deepEqual([seen.FromVertexTypeName, seen.ToVertexTypeName], ['*', '*']);
    // Within a graph, `FROM *, TO *` is listed as every pair of the graph's vertex types, as TigerGraph lists it.
    const names: string[] = schema.json.results.VertexTypes.map((v: { Name: string }) => v.Name);
    assert.ok(names.length > 1);
    assert.deepEqual(
      seen.EdgePairs,
      names.flatMap((from) => names.map((to) => ({ From: from, To: to }))),
    );
    // The pairs are not listed for an edge type of one pair of named types, as TigerGraph answers.
    const same = schema.json.results.EdgeTypes.find((e: { Name: string }) => e.Name === 'same_store');
    assert.equal('EdgePairs' in same, false);
    assert.deepEqual([same.FromVertexTypeName, same.ToVertexTypeName], ['store_v', 'store_v']);
    const stocked = schema.json.results.EdgeTypes.find((e: { Name: string }) => e.Name === 'stocked_on');
    assert.deepEqual(stocked.EdgePairs, [
      { From: 'basket', To: 'shelf' },
      { From: 'clerk', To: 'shelf' },
    ]);
    assert.deepEqual([stocked.FromVertexTypeName, stocked.ToVertexTypeName], ['*', '*']);
    const udts = await call('GET', '/gsql/v1/udt/tuples?graph=shop');
    assert.deepEqual(udts.json.results, [
      {
        name: 'line_item',
        fields: [
          { fieldName: 'qty', fieldType: 'INT', length: 4 },
          { fieldName: 'label', fieldType: 'STRING', length: 8 },
          { fieldName: 'at', fieldType: 'DATETIME' },
        ],
      },
    ]);
    const missing = await call('GET', '/gsql/v1/udt/tuples?graph=nope');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error, true);
    assert.equal(missing.json.code, 'REST-1004');
  });

  it('upserts and reads back collection, tuple and composite-key vertices over REST++', async () => {
    const up = await call('POST', '/restpp/graph/shop', {
      vertices: {
        basket: {
          b1: {
            first: { value: { qty: 2, label: 'tea', at: '2024-05-01 10:00:00' } },
            lines: { value: [{ qty: 1, label: 'milk' }] },
            tags: { value: ['a', 'b', 'a'] },
            by_day: { value: { keylist: ['2024-05-01'], valuelist: [3] } },
          },
        },
        shelf: { '3,left,2024-05-01 00:00:00': {} },
      },
    });
    assert.equal(up.status, 200, up.text);
    const b1 = await call('GET', '/restpp/graph/shop/vertices/basket/b1');
    const attrs = b1.json.results[0].attributes;
    assert.deepEqual(attrs.first, { qty: 2, label: 'tea', at: '2024-05-01 10:00:00' });
    assert.deepEqual(attrs.lines, [{ qty: 1, label: 'milk', at: '1970-01-01 00:00:00' }]);
    assert.deepEqual(attrs.tags, ['a', 'b']);
    assert.deepEqual(attrs.by_day, { '2024-05-01 00:00:00': 3 });
    const shelf = await call('GET', `/restpp/graph/shop/vertices/shelf/${encodeURIComponent('3,left,2024-05-01')}`);
    assert.equal(shelf.status, 200, shelf.text);
    assert.deepEqual(shelf.json.results[0].attributes, { aisle: 3, side: 'left', since: '2024-05-01 00:00:00' });
    const edges = await call('GET', '/restpp/graph/shop/edges/clerk/7/stocked_on');
    assert.equal(edges.json.results.length, 1, edges.text);
    assert.equal(edges.json.results[0].attributes.n, 4);
  });

  it('refuses a bad value, an edge outside its pairs and a job naming an unknown type, changing nothing', async () => {
    const bad = await call('POST', '/restpp/graph/shop', {
      vertices: { basket: { b2: { first: { value: { qty: 'many' } } } } },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error, true);
    assert.equal(bad.json.code, 'REST-30200');
    assert.match(bad.json.message, /field qty of line_item/);
    const pair = await call('POST', '/restpp/graph/shop', {
      edges: { shelf: { '3,left,2024-05-01': { stocked_on: { basket: { b1: {} } } } } },
    });
    assert.equal(pair.status, 400);
    assert.equal(pair.json.code, 'REST-30200');
    assert.equal((await call('GET', '/restpp/graph/shop/vertices/basket/b2')).status, 404);

    const before = (await call('GET', '/gsql/v1/schema?graph=shop')).text;
    const job = await call(
      'POST',
      '/gsql/v1/statements',
      'USE GRAPH shop\nCREATE SCHEMA_CHANGE JOB j2 {\n  ADD VERTEX extra (PRIMARY_ID id INT);\n' +
        '  ALTER VERTEX ghost ADD ATTRIBUTE (x INT);\n}',
    );
    assert.match(job.text, /The vertex type ghost is not a local type of the graph shop/);
    assert.match(job.text, /__GSQL__RETURN__CODE__,212/);
    assert.equal((await call('GET', '/gsql/v1/schema?graph=shop')).text, before);
    const dup = await call('POST', '/gsql/v1/statements', 'TYPEDEF TUPLE <a INT> line_item');
    assert.match(dup.text, /The name line_item is already used by a tuple/);
  });
});
