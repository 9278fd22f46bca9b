import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import semver from 'semver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  license: string;
  repository?: unknown;
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

  it('packs its license and the docs that its help and README point to', () => {
    // What `npm pack` would put in the tarball (its build step skipped: only the list is read).
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as [{ files: Array<{ path: string }> }];
    const files = new Set(packed.files.map((f) => f.path));

    assert.equal(pkg.license, 'Apache-2.0');
    assert.ok(files.has('LICENSE'), 'the license text is packed');
    const license = readFileSync(path.join(root, 'LICENSE'), 'utf8');
    assert.match(license, /^\s*Apache License\s+Version 2\.0, January 2004/);
    assert.match(license, /END OF TERMS AND CONDITIONS/, 'the whole text');

    // Every doc a command's help or the README names is in the tarball; the screenshots are not.
    const named = new Set<string>();
    const collect = (text: string) => {
      for (const [doc] of text.matchAll(/docs\/[a-z-]+\.md/g)) named.add(doc);
    };
    const cliDir = path.join(root, 'src', 'cli');
    for (const entry of readdirSync(cliDir, { recursive: true, encoding: 'utf8' }))
      if (entry.endsWith('.ts')) collect(readFileSync(path.join(cliDir, entry), 'utf8'));
    assert.ok(named.has('docs/events.md'), "the events commands' help names docs/events.md");
    collect(readFileSync(path.join(root, 'README.md'), 'utf8'));
    for (const doc of named) assert.ok(files.has(doc), `${doc} is packed`);
    assert.ok(files.has('README.md'));
    assert.ok(![...files].some((f) => f.startsWith('docs/screenshots/')), 'no screenshots');
  });
});
