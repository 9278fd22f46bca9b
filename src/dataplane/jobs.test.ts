import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { scratchStores } from '../../test/helpers/scratch-stores.js';
import { runGsql } from './gsql-runner.js';

describe('jobs and queries belong to their graph', () => {
  const store = scratchStores('jobs').open();
  after(() => store.close());
  const gsql = (text: string) => runGsql(store, text);
  const setup = `CREATE VERTEX P (PRIMARY_ID id STRING)
CREATE GRAPH g (P)
USE GRAPH g
CREATE LOADING JOB load_p FOR GRAPH g { DEFINE FILENAME f; LOAD f TO VERTEX P VALUES ($0); }
CREATE SCHEMA_CHANGE JOB grow FOR GRAPH g { ADD VERTEX Q (PRIMARY_ID id STRING); }
CREATE QUERY hello() FOR GRAPH g { PRINT "hi"; }`;

  it('one name for one job, whichever its kind', () => {
    const made = gsql(setup);
    assert.ok(made.ok, made.output);
    const loadingNamedLikeSchemaJob = gsql(
      'USE GRAPH g\nCREATE LOADING JOB grow FOR GRAPH g { DEFINE FILENAME f; LOAD f TO VERTEX P VALUES ($0); }',
    );
    assert.equal(loadingNamedLikeSchemaJob.ok, false);
    assert.match(loadingNamedLikeSchemaJob.output, /The job name grow is already used/);
    const schemaNamedLikeLoadingJob = gsql(
      'USE GRAPH g\nCREATE SCHEMA_CHANGE JOB load_p FOR GRAPH g { ADD VERTEX R (PRIMARY_ID id STRING); }',
    );
    assert.equal(schemaNamedLikeLoadingJob.ok, false);
    assert.match(schemaNamedLikeLoadingJob.output, /The job name load_p is already used/);
    const shown = gsql('USE GRAPH g\nSHOW JOB *');
    assert.match(shown.output, /CREATE LOADING JOB load_p/);
    assert.match(shown.output, /grow/);
  });

  it('DROP GRAPH takes its queries and jobs with it', () => {
    const dropped = gsql('DROP GRAPH g');
    assert.ok(dropped.ok, dropped.output);
    assert.equal(store.db.prepare(`SELECT count(*) FROM queries WHERE graph = 'g'`).pluck().get(), 0);
    assert.equal(store.db.prepare(`SELECT count(*) FROM loading_jobs WHERE graph = 'g'`).pluck().get(), 0);
    assert.equal(store.catalog.jobs.has('grow'), false);
    // The same graph made again starts without them: the names are free.
    const again = gsql(setup.replace('CREATE VERTEX P (PRIMARY_ID id STRING)\n', ''));
    assert.ok(again.ok, again.output);
  });
});
