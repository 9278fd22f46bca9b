import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import semver from 'semver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  files: string[];
  exports: Record<string, unknown>;
  bin: Record<string, string>;
};

describe('the package', () => {
  it('claims only Node.js versions every dependency it installs with accepts', () => {
    // The production tree as installed here: what `npm install acacia` brings along.
    const dirs = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .filter(Boolean)
      .slice(1);
    assert.ok(dirs.length > 50, `found the dependency tree (${dirs.length})`);
    const narrower: string[] = [];
    for (const dir of new Set(dirs)) {
      const dep = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        engines?: { node?: string };
      };
      const range = dep.engines?.node;
      if (range && !semver.subset(pkg.engines.node, range, { includePrerelease: false }))
        narrower.push(`${dep.name}@${dep.version} wants node ${range}`);
    }
    assert.deepEqual(narrower, [], `engines.node "${pkg.engines.node}" promises more than these accept`);
    assert.ok(semver.satisfies(process.version, pkg.engines.node), `${process.version} is one of them`);
  });

  it('ships the build (server, CLI, client with declarations, console) and exports the client and the CLI', () => {
    assert.deepEqual(pkg.files.slice(0, 2), ['bin/', 'dist/']);
    assert.equal(pkg.bin.acacia, 'bin/acacia.js');
    for (const name of ['.', './client', './cli']) assert.ok(pkg.exports[name], `exports ${name}`);
    assert.deepEqual(pkg.exports['./client'], {
      types: './dist/client/index.d.ts',
      default: './dist/client/index.js',
    });
  });
});
