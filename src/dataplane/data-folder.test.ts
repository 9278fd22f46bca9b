import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { DataFolderError, readablePath, writablePath } from './data-folder.js';

describe('a workspace data folder', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'acacia-data-folder-'));
  const folder = path.join(root, 'files');
  const elsewhere = path.join(root, 'elsewhere');
  fs.mkdirSync(folder);
  fs.mkdirSync(elsewhere);
  fs.writeFileSync(path.join(elsewhere, 'secret.txt'), 'not yours');
  fs.writeFileSync(path.join(folder, 'rows.csv'), 'a,b\n');
  fs.symlinkSync(elsewhere, path.join(folder, 'way-out'));
  fs.symlinkSync(path.join(elsewhere, 'secret.txt'), path.join(folder, 'linked.txt'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  const refusal = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      if (err instanceof DataFolderError) return err.reason;
      throw err;
    }
    return assert.fail('expected a refusal');
  };

  it('reads a file inside, and refuses paths and links that lead out', () => {
    assert.equal(readablePath(folder, 'rows.csv'), fs.realpathSync(path.join(folder, 'rows.csv')));
    const refused: [string, string, string][] = [
      [folder, '../elsewhere/secret.txt', 'outside'],
      [folder, path.join(elsewhere, 'secret.txt'), 'outside'],
      [folder, 'way-out/secret.txt', 'outside'],
      [folder, 'linked.txt', 'outside'],
      [folder, 'absent.csv', 'missing'],
      [path.join(root, 'none'), 'rows.csv', 'noFolder'],
    ];
    for (const [base, asked, code] of refused)
      assert.equal(
        refusal(() => readablePath(base, asked)),
        code,
        asked,
      );
  });

  it('writes inside, creating folders, and refuses a link on the way out before creating anything', () => {
    const out = writablePath(folder, 'out/today/result.csv');
    assert.equal(out, path.join(fs.realpathSync(folder), 'out', 'today', 'result.csv'));
    assert.ok(fs.statSync(path.dirname(out)).isDirectory());
    assert.equal(
      refusal(() => writablePath(folder, '../escape.csv')),
      'outside',
    );
    assert.equal(
      refusal(() => writablePath(folder, 'way-out/new/leak.csv')),
      'outside',
    );
    assert.equal(fs.existsSync(path.join(elsewhere, 'new')), false);
    assert.equal(
      refusal(() => writablePath(folder, 'linked.txt')),
      'outside',
    );
    assert.equal(fs.readFileSync(path.join(elsewhere, 'secret.txt'), 'utf8'), 'not yours');
  });
});
