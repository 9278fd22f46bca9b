import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dataPlaneCall, interpreted, type DataPlaneReply } from './helpers/data-plane.js';
import { startDataPlane, type DataPlaneProcess } from '../src/dataplane/index.js';

/**
 * Loading jobs on a real data-plane process: created and run with GSQL, and fed over
 * `POST /restpp/ddl/{graph}` exactly as pyTigerGraph's runLoadingJobWithData sends a file.
 */

const schema = `CREATE VERTEX Person (PRIMARY_ID name STRING, age INT, city STRING) WITH primary_id_as_attribute="true"
CREATE VERTEX Company (id UINT PRIMARY KEY, title STRING)
CREATE DIRECTED EDGE follows (FROM Person, TO Person, since INT)
CREATE UNDIRECTED EDGE works_at (FROM Person, TO Company, role STRING)
CREATE GRAPH social (*)
CREATE GRAPH other (Company)`;

const jobs = `USE GRAPH social
CREATE LOADING JOB load_people FOR GRAPH social {
  DEFINE FILENAME people;
  DEFINE FILENAME links = "links.tsv";
  LOAD people TO VERTEX Person VALUES ($"name", $"age", gsql_upper($"city")) USING HEADER="true", QUOTE="double";
  LOAD links TO EDGE follows VALUES ($0, $1, $2), TO VERTEX Person VALUES ($0, _, "Paris")
    USING SEPARATOR="\\t", HEADER="false";
}
CREATE LOADING JOB load_work FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Company VALUES ($1, $2) USING SEPARATOR="|", QUOTE="single";
  LOAD f TO EDGE works_at VALUES ($0, $1, $3) USING SEPARATOR="|", QUOTE="single";
}`;

describe('loading jobs on the data-plane process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-loading-'));
  const storeFile = path.join(dir, 'graph.db');
  const secret = randomBytes(24).toString('base64url');
  let dp: DataPlaneProcess;

  const uploadLimitBytes = 4 << 20;
  const start = () =>
    startDataPlane({ storeFile, secret, tgVersion: '4.1.3', bodyLimitBytes: 1 << 20, uploadLimitBytes });
  const call = dataPlaneCall(() => dp.url, secret);
  const gsql = (text: string) => call('POST', '/gsql/v1/statements', text);
  const ddl = (graph: string, query: string, body: string) => call('POST', `/restpp/ddl/${graph}?${query}`, body);
  const person = async (name: string) => (await call('GET', `/restpp/graph/social/vertices/Person/${name}`)).json;
  const refused = (reply: DataPlaneReply, status: number, code: string, message: RegExp) => {
    assert.equal(reply.status, status, reply.text);
    assert.equal(reply.json.error, true, reply.text);
    assert.equal(reply.json.code, code, reply.text);
    assert.match(reply.json.message, message);
  };

  before(async () => {
    dp = await start();
    assert.equal((await gsql(schema)).status, 200);
    const created = await gsql(jobs);
    assert.match(created.text, /Successfully created loading jobs: \[load_people\]/);
    assert.match(created.text, /Successfully created loading jobs: \[load_work\]/);
  });
  after(async () => {
    await dp.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('loads a posted file with a header, quotes and a token function, as runLoadingJobWithData posts it', async () => {
    const body = 'name,age,city\nalice,34,"Lyon, Rhône"\n"bob ""b""",27,nice\r\ncarol,45,Oslo';
    const reply = await ddl('social', 'tag=load_people&filename=people&sep=,&eol=%0A', body);
    assert.equal(reply.status, 200, reply.text);
    const [result] = reply.json.results;
    assert.equal(result.sourceFileName, 'Online_POST');
    assert.equal(result.statistics.validLine, 3);
    assert.equal(result.statistics.rejectLine, 0);
    assert.deepEqual(result.statistics.vertex, [
      { typeName: 'Person', validObject: 3, noIdFound: 0, invalidAttribute: 0, invalidPrimaryId: 0 },
    ]);
    assert.deepEqual((await person('alice')).results[0].attributes, { name: 'alice', age: 34, city: 'LYON, RHÔNE' });
    assert.equal((await person('bob%20%22b%22')).results[0].attributes.city, 'NICE');
  });

  it('loads one line into an edge and a vertex, leaving a skipped (_) attribute as it was', async () => {
    const reply = await ddl(
      'social',
      'tag=load_people&filename=links&sep=%09',
      'alice\tdave\t2020\ndave\talice\t2021\n',
    );
    assert.equal(reply.status, 200, reply.text);
    const stats = reply.json.results[0].statistics;
    assert.equal(stats.validLine, 2);
    assert.deepEqual(
      [stats.edge[0].typeName, stats.edge[0].validObject, stats.vertex[0].validObject],
      ['follows', 2, 2],
    );
    assert.deepEqual((await person('alice')).results[0].attributes, { name: 'alice', age: 34, city: 'Paris' });
    const edges = await call('GET', '/restpp/graph/social/edges/Person/alice/follows');
    assert.deepEqual(
      edges.json.results.map((e: { to_id: string; attributes: { since: number } }) => [e.to_id, e.attributes.since]),
      [['dave', 2020]],
    );
  });

  it('counts a short line as rejected and a value that does not fit as invalid, and writes the rest', async () => {
    const body = "1|7|'Acme | Co'|cto\n2|8\n3|x|Bad|ceo\n4|9|Nine|dev";
    const reply = await ddl('social', 'tag=load_work&filename=f&sep=|', body);
    assert.equal(reply.status, 200, reply.text);
    const stats = reply.json.results[0].statistics;
    assert.deepEqual([stats.validLine, stats.rejectLine, stats.notEnoughToken], [3, 1, 1]);
    const company = stats.vertex.find((v: { typeName: string }) => v.typeName === 'Company');
    assert.deepEqual([company.validObject, company.invalidPrimaryId], [2, 1]);
    const acme = await call('GET', '/restpp/graph/social/vertices/Company/7');
    assert.equal(acme.json.results[0].attributes.title, 'Acme | Co');
    // Neither the short line's vertex 8 nor its edge is there.
    refused(await call('GET', '/restpp/graph/social/vertices/Company/8'), 404, '601', /'8'/);
    const works = await call('GET', '/restpp/graph/social/edges/Person/4/works_at');
    assert.equal(works.status, 200, works.text);
    assert.deepEqual(
      works.json.results.map((e: { to_id: string }) => e.to_id),
      ['9'],
    );
  });

  it('loads only the lines a WHERE condition keeps, counting the others, and refuses a mistyped one', async () => {
    const created = await gsql(`USE GRAPH social
CREATE LOADING JOB where_adults FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES ($"name", $"age", $"city") WHERE to_int($"age") >= 18 AND $"city" IN ("Oslo", "Rome")
    USING HEADER="true";
}`);
    assert.match(created.text, /Successfully created loading jobs: \[where_adults\]/);
    const body = 'name,age,city\nwhere_a,30,Oslo\nwhere_b,12,Oslo\nwhere_c,40,Lima\nwhere_d,old,Rome\nwhere_e,18,Rome';
    const reply = await ddl('social', 'tag=where_adults&filename=f&sep=,', body);
    assert.equal(reply.status, 200, reply.text);
    const stats = reply.json.results[0].statistics;
    assert.deepEqual([stats.validLine, stats.failedConditionLine, stats.rejectLine], [5, 3, 0]);
    assert.equal((await person('where_a')).results[0].attributes.age, 30);
    assert.equal((await person('where_e')).results[0].attributes.city, 'Rome');
    for (const name of ['where_b', 'where_c', 'where_d'])
      refused(await call('GET', `/restpp/graph/social/vertices/Person/${name}`), 404, '601', new RegExp(name));

    const mistyped = await gsql(`USE GRAPH social
CREATE LOADING JOB mistyped FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES ($0, $1, $2) WHERE $1 > 18;
}`);
    assert.match(mistyped.text, /Syntax Error: The WHERE clause compares STRING with a number; convert with to_int/);
    assert.match(mistyped.text, /\(at line 4, column 56\)/);
    assert.doesNotMatch((await gsql('SHOW JOB *')).text, /mistyped/);
  });

  it('loads a posted JSON lines file by key, counting lines that are no object or lack a key', async () => {
    const created = await gsql(`USE GRAPH social
CREATE LOADING JOB with_json FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Company VALUES ($"company":"id", $"company":"title"),
    TO EDGE works_at VALUES ($"name", $"company":"id", $"role") WHERE $"role" != "intern"
    USING JSON_FILE="true";
}`);
    assert.match(created.text, /Successfully created loading jobs: \[with_json\]/);
    const body = [
      '{"name":"json_a","company":{"id":7001,"title":12345678901234567890},"role":"cto"}',
      '{"name":"json_b","company":{"id":"21","title":"Twenty-one"},"role":"intern"}',
      '{"name":"json_c","company":{"id":22},"role":"dev"}',
      '{"name":"json_d","company":{"id":23,"title":"T"}',
    ].join('\n');
    // pyTigerGraph sends no separator for JSON; one sent anyway changes nothing.
    const reply = await ddl('social', 'tag=with_json&filename=f&sep=|', body);
    assert.equal(reply.status, 200, reply.text);
    const stats = reply.json.results[0].statistics;
    assert.deepEqual(
      [stats.validLine, stats.rejectLine, stats.invalidJson, stats.notEnoughToken, stats.failedConditionLine],
      [2, 2, 1, 1, 1],
    );
    // A number past 2^53 keeps every digit it was written with.
    const big = await call('GET', '/restpp/graph/social/vertices/Company/7001');
    assert.equal(big.status, 200, big.text);
    assert.equal(big.json.results[0].attributes.title, '12345678901234567890');
    const roles = await call('GET', '/restpp/graph/social/edges/Person/json_a/works_at');
    assert.deepEqual(
      roles.json.results.map((e: { to_id: string; attributes: { role: string } }) => [e.to_id, e.attributes.role]),
      [['7001', 'cto']],
    );
    assert.equal(
      (await call('GET', '/restpp/graph/social/vertices/Company/21')).json.results[0].attributes.title,
      'Twenty-one',
    );
    refused(await call('GET', '/restpp/graph/social/edges/Person/json_b/works_at'), 404, '601', /json_b/);
    refused(await call('GET', '/restpp/graph/social/vertices/Company/22'), 404, '601', /'22'/);

    const shown = (await gsql('USE GRAPH social\nSHOW JOB with_json')).text;
    assert.match(shown, /VALUES \(\$"name", \$"company":"id", \$"role"\) WHERE \(\$"role" != "intern"\)/);
    assert.match(shown, /JSON_FILE="true"/);
  });

  it('adds posted lines to LIST and MAP attributes, request after request, and prints SPLIT and pairs', async () => {
    const created = await gsql(`CREATE VERTEX Basket (PRIMARY_ID id STRING, items LIST<STRING>, counts MAP<STRING, INT>)
CREATE GRAPH baskets (Basket)
CREATE LOADING JOB stock FOR GRAPH baskets {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Basket VALUES ($0, SPLIT($1, ";"), ($2 -> $3));
}`);
    assert.match(created.text, /Successfully created loading jobs: \[stock\]/);
    const first = await ddl('baskets', 'tag=stock&filename=f', 'b1,apple;pear,apple,2\nb1,fig,fig,1\nb2,x,x,notint\n');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.json.results[0].statistics.vertex, [
      { typeName: 'Basket', validObject: 2, noIdFound: 0, invalidAttribute: 1, invalidPrimaryId: 0 },
    ]);
    await ddl('baskets', 'tag=stock&filename=f', 'b1,apple,apple,5\n');
    const basket = await call('GET', '/restpp/graph/baskets/vertices/Basket/b1');
    assert.equal(basket.status, 200, basket.text);
    assert.deepEqual(basket.json.results[0].attributes, {
      items: ['apple', 'pear', 'fig', 'apple'],
      counts: { apple: 5, fig: 1 },
    });
    refused(await call('GET', '/restpp/graph/baskets/vertices/Basket/b2'), 404, '601', /'b2'/);
    const shown = (await gsql('USE GRAPH baskets\nSHOW JOB stock')).text;
    assert.match(shown, /VALUES \(\$0, SPLIT\(\$1, ";"\), \(\$2 -> \$3\)\)/);
  });

  it('deletes what posted lines name, in its statistics, and the next query sees the graph without them', async () => {
    const created = await gsql(`USE GRAPH social
CREATE LOADING JOB prune FOR GRAPH social {
  DEFINE FILENAME f;
  DELETE VERTEX Person (PRIMARY_ID $0) FROM f WHERE $1 == "person";
  DELETE EDGE follows (FROM $0, TO $1) FROM f WHERE $1 != "person";
}`);
    assert.match(created.text, /Successfully created loading jobs: \[prune\]/);
    await ddl('social', 'tag=load_people&filename=links', 'p1\tp2\t1\np2\tp3\t2\np3\tp1\t3\n');
    const graph = async () => {
      const printed = await interpreted(
        call,
        `INTERPRET QUERY () FOR GRAPH social {
  SetAccum<STRING> @@follows;
  P = {Person.*};
  F = SELECT s FROM P:s -(follows:e)-> Person:t WHERE s.name == "p1" OR s.name == "p2" OR s.name == "p3"
      ACCUM @@follows += s.name + ">" + t.name;
  PRINT @@follows AS follows;
}`,
      );
      return (printed.follows as string[]).sort();
    };
    assert.deepEqual(await graph(), ['p1>p2', 'p2>p3', 'p3>p1']);
    const reply = await ddl('social', 'tag=prune&filename=f', 'p3,person\np1,p2\n,person\n');
    assert.equal(reply.status, 200, reply.text);
    const { statistics } = reply.json.results[0];
    const counted = (typeName: string, validObject: number, noIdFound: number) => [
      { typeName, validObject, noIdFound, invalidAttribute: 0, invalidPrimaryId: 0 },
    ];
    assert.deepEqual(
      [statistics.validLine, statistics.failedConditionLine, statistics.deleteVertex, statistics.deleteEdge],
      [3, 3, counted('Person', 1, 1), counted('follows', 1, 0)],
    );
    // p3 went with its edges (p2>p3, p3>p1), and p1>p2 was deleted by the line naming it.
    assert.deepEqual(await graph(), []);
    refused(await call('GET', '/restpp/graph/social/vertices/Person/p3'), 404, '601', /'p3'/);
    assert.match(
      (await gsql('USE GRAPH social\nSHOW JOB prune')).text,
      /DELETE EDGE follows \(FROM \$0, TO \$1\) FROM f/,
    );
  });

  it("refuses an unknown graph, job or file variable in TigerGraph's shape, changing nothing", async () => {
    const before = (await call('GET', '/restpp/graph/social/vertices/Person?count_only=true')).json.results[0].count;
    refused(await ddl('nograph', 'tag=load_people&filename=people', 'x,1,y'), 404, 'REST-1004', /nograph/);
    refused(await ddl('social', 'tag=nojob&filename=people', 'name\nx'), 400, 'REST-30001', /'nojob' does not exist/);
    refused(await ddl('other', 'tag=load_people&filename=people', 'name\nx'), 400, 'REST-30001', /graph 'other'/);
    refused(await ddl('social', 'tag=load_people&filename=nofile', 'x'), 400, 'REST-30001', /'nofile'/);
    refused(await ddl('social', 'filename=people', 'x'), 400, 'REST-30001', /tag/);
    refused(await ddl('social', 'tag=load_people&filename=people&sep=ab', 'x'), 400, 'REST-30001', /sep/);
    refused(
      await ddl('social', 'tag=load_people&filename=people', 'nom,age,city\nzed,1,x'),
      400,
      'REST-30001',
      /column "name"/,
    );
    const after = (await call('GET', '/restpp/graph/social/vertices/Person?count_only=true')).json.results[0].count;
    assert.equal(after, before);
  });

  it('runs a job with GSQL on files of the data folder only', async () => {
    const folder = path.join(dir, 'files');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'links.tsv'), 'erin\tfrank\t2019\n');
    fs.writeFileSync(path.join(folder, 'people.csv'), 'name,age,city\nerin,50,rome\n');
    fs.writeFileSync(path.join(dir, 'secret.tsv'), 'mallory\teve\t1\n');
    fs.symlinkSync(path.join(dir, 'secret.tsv'), path.join(folder, 'link.tsv'));
    const noPath = await gsql('USE GRAPH social\nRUN LOADING JOB load_people USING links="links.tsv"');
    assert.match(noPath.text, /No path is given for file variable people/);
    const run = await gsql('USE GRAPH social\nRUN LOADING JOB load_people USING people="people.csv"');
    assert.match(run.text, /people \(people\.csv\): 1 lines loaded, 0 rejected; objects Person: 1/);
    // The path DEFINE FILENAME gave is read when USING gives none.
    assert.match(run.text, /links \(links\.tsv\): 1 lines loaded, 0 rejected; objects Person: 1, follows: 1/);
    assert.equal((await person('erin')).results[0].attributes.city, 'Paris');
    assert.equal((await person('frank')).results[0].attributes.city, '');
    for (const outside of [path.join(dir, 'secret.tsv'), '../secret.tsv', 'link.tsv']) {
      const refusedRun = await gsql(
        `USE GRAPH social\nRUN LOADING JOB load_people USING people="people.csv", links="${outside}"`,
      );
      assert.match(refusedRun.text, /is outside the data folder/, outside);
      assert.match(refusedRun.text, /__GSQL__RETURN__CODE__,212/);
    }
    assert.equal((await call('GET', '/restpp/graph/social/vertices/Person/mallory')).status, 404);
    // A file only a DELETE reads is read too.
    fs.writeFileSync(path.join(folder, 'gone.csv'), 'frank\nnobody\n');
    await gsql(`CREATE LOADING JOB purge_people FOR GRAPH social {
  DEFINE FILENAME gone = "gone.csv";
  DELETE VERTEX Person (PRIMARY_ID $0) FROM gone;
}`);
    const dropped = await gsql('USE GRAPH social\nRUN LOADING JOB purge_people');
    assert.match(dropped.text, /gone \(gone\.csv\): 2 lines loaded, 0 rejected; objects none; deleted Person: 2/);
    assert.equal((await call('GET', '/restpp/graph/social/vertices/Person/frank')).status, 404);
    const missing = await gsql('USE GRAPH social\nRUN LOADING JOB nojob');
    assert.match(missing.text, /The job nojob does not exist/);
  });

  it('refuses a job that does not fit the schema, naming the line and column', async () => {
    const bad = await gsql(`CREATE LOADING JOB bad FOR GRAPH social {
  DEFINE FILENAME f;
  LOAD f TO VERTEX Person VALUES ($0, $1);
}`);
    assert.match(bad.text, /Semantic Check Fails: The LOAD to vertex Person gives 2 values; it takes 3 \(at line 3/);
    const syntax = await gsql(
      'CREATE LOADING JOB bad2 FOR GRAPH social { DEFINE FILENAME f; LOAD g TO VERTEX Person VALUES ($0); }',
    );
    assert.match(
      syntax.text,
      /Syntax Error: The file name g is not defined by DEFINE FILENAME \(at line 1, column 68\)/,
    );
    assert.match((await gsql('SHOW JOB *')).text, /^ {2}- CREATE LOADING JOB load_people FOR GRAPH social \{/);
    assert.doesNotMatch((await gsql('SHOW JOB *')).text, /bad/);
  });

  it('loads a file larger than the body limit up to the upload limit, keeping no copy of it', async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `big${i},${i % 90},Rome`).join('\n');
    const body = `name,age,city\n${lines(200_000)}`;
    assert.ok(body.length > 2 << 20 && body.length < uploadLimitBytes);
    const reply = await ddl('social', 'tag=load_people&filename=people', body);
    assert.equal(reply.status, 200, reply.text.slice(0, 300));
    assert.equal(reply.json.results[0].statistics.validLine, 200_000);
    assert.deepEqual((await person('big199999')).results[0].attributes, {
      name: 'big199999',
      age: 199_999 % 90,
      city: 'ROME',
    });
    const uploads = path.join(dir, 'uploads');
    assert.deepEqual(fs.readdirSync(uploads), []);

    const over = `name,age,city\n${lines(500_000).replaceAll('big', 'over')}`;
    assert.ok(over.length > uploadLimitBytes);
    const refusedReply = await ddl('social', 'tag=load_people&filename=people', over);
    assert.equal(refusedReply.status, 413, refusedReply.text);
    assert.equal(refusedReply.json.code, 'REST-30000');
    assert.match(refusedReply.json.message, new RegExp(`larger than the limit of ${uploadLimitBytes} bytes`));
    const missing = await call('GET', '/restpp/graph/social/vertices/Person/over0');
    assert.equal(missing.json.error, true, missing.text);
    assert.deepEqual(fs.readdirSync(uploads), []);
    // A job that cannot run is refused before the body is taken, however large it is.
    refused(await ddl('social', 'tag=nope&filename=people', over), 400, 'REST-30001', /nope/);
  });

  it('keeps jobs across a restart, and drops them', async () => {
    await dp.stop();
    dp = await start();
    const shown = await gsql('SHOW JOB load_work');
    assert.match(shown.text, /LOAD f TO VERTEX Company VALUES \(\$1, \$2\) USING SEPARATOR="\|", HEADER="false"/);
    const reply = await ddl('social', 'tag=load_work&filename=f&sep=|', '5|10|Ten|ops');
    assert.equal(reply.json.results[0].statistics.validLine, 1);
    assert.match((await gsql('DROP JOB load_work')).text, /Successfully dropped jobs: \[load_work\]/);
    refused(await ddl('social', 'tag=load_work&filename=f&sep=|', '6|11|x|y'), 400, 'REST-30001', /load_work/);
    assert.match((await gsql('DROP JOB load_work')).text, /The job load_work does not exist/);
  });
});
