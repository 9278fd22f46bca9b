import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');

describe('docs/architecture.md', () => {
  // The example is the whole of adding a kind: a diff that no longer applies would teach a
  // step that has changed.
  it('example of adding an operation kind applies to the sources as they are', () => {
    const section = doc.split(/^## /m).find((s) => s.startsWith('Adding an operation kind\n'));
    const diff = section && /```diff\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(diff, 'the section has a diff');
    const check = spawnSync('git', ['apply', '-p0', '--check', '-'], { cwd: root, input: diff, encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
  });
});
