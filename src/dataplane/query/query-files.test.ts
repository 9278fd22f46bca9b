import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { csvField, QueryFiles } from './query-files.js';
import { QueryRuntimeError } from './values.js';

describe('the files of a query run', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'query-files-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('stops a run that writes more than its limit, keeping what came before', () => {
    const files = new QueryFiles(root, 10);
    const file = files.open('limited.txt');
    files.append(file, 'abcd');
    files.append(file, 'efgh');
    assert.throws(
      () => files.append(file, 'i'),
      (err: unknown) => err instanceof QueryRuntimeError && /more than 10 bytes/.test(err.message),
    );
    files.flush();
    assert.equal(fs.readFileSync(file, 'utf8'), 'abcd\nefgh\n');
    // The limit is the run's: another file of the same run has no more room.
    assert.throws(() => files.append(files.open('other.txt'), 'x'), QueryRuntimeError);
  });

  it('opens a path once per run for TO_CSV, and refuses one outside the folder', () => {
    const files = new QueryFiles(root);
    const a = files.openOnce('again.csv');
    files.append(a, 'one');
    assert.equal(files.openOnce('again.csv'), a);
    files.append(a, 'two');
    files.flush();
    assert.equal(fs.readFileSync(a, 'utf8'), 'one\ntwo\n');
    assert.throws(
      () => files.open('../escape.csv'),
      (err: unknown) => err instanceof QueryRuntimeError && /outside the workspace's file folder/.test(err.message),
    );
  });

  it('holds lines until 64 KiB of them or the end of the run; a file declared again drops its held lines', () => {
    const files = new QueryFiles(root);
    const file = files.open('held.txt');
    files.append(file, 'first');
    assert.equal(fs.readFileSync(file, 'utf8'), '', 'held, not yet written');
    const long = 'x'.repeat(1023);
    for (let i = 0; i < 64; i++) files.append(file, long);
    // 64 KiB held: written out together, without waiting for the run's end.
    assert.equal(fs.readFileSync(file, 'utf8').split('\n').length, 66);
    files.append(file, 'dropped');
    files.open('held.txt');
    files.append(file, 'kept');
    files.flush();
    assert.equal(fs.readFileSync(file, 'utf8'), 'kept\n');
  });

  it('writes every file out once the lines held across them reach 1 MiB', () => {
    const files = new QueryFiles(root);
    const paths = Array.from({ length: 20 }, (_, i) => files.open(`many-${i}.txt`));
    const line = 'y'.repeat(60 * 1024 - 1);
    // 60 KiB a file stays under each file's own 64 KiB; the 18th line takes the run past 1 MiB.
    paths.slice(0, 17).forEach((p) => files.append(p, line));
    assert.ok(paths.every((p) => fs.readFileSync(p, 'utf8') === ''));
    files.append(paths[17]!, line);
    assert.ok(paths.slice(0, 18).every((p) => fs.readFileSync(p, 'utf8') === `${line}\n`));
  });

  it('writes a list as its elements separated by spaces', () => {
    assert.equal(csvField([1, 'a', new Set([2, 3])]), '1 a 2 3');
    assert.equal(csvField(2.5), '2.5');
  });
});
