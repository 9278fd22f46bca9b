import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, type CliResult } from './helpers/cli.js';
import { storeName } from './helpers/server.js';

const pgAdminUrl = process.env.ACACIA_TEST_DATABASE_URL;

/** One line on stderr naming the setting, no stack trace, a non-zero exit. */
function oneLine(res: CliResult, code: number, pattern: RegExp): void {
  assert.equal(res.code, code, res.stderr);
  const lines = res.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line, not:\n${res.stderr}`);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(res.stderr, /\n\s+at /, 'no stack trace');
}

describe(`start-up failures say what to fix in one line (${storeName})`, () => {
  let dir: string;
  let taken: net.Server;
  let takenPort: number;

  /** `acacia serve` on a fresh data directory and free ports, with `env` over it. */
  const serve = (env: Record<string, string>) =>
    runCli(['serve'], {
      ACACIA_DATA_DIR: mkdtempSync(path.join(dir, 'data-')),
      ACACIA_PORT: '0',
      ACACIA_GATEWAY_PORT: '0',
      ACACIA_BOOTSTRAP_API_KEY: 'acacia_sk_startup-failure-test-0123456789',
      ...env,
    });

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'acacia-startup-'));
    taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    takenPort = (taken.address() as net.AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => taken.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('an invalid setting: the variable, its flag and what it must be (exit 2)', async () => {
    oneLine(
      await serve({ ACACIA_RATE_LIMIT: 'lots' }),
      2,
      /^error: invalid setting: ACACIA_RATE_LIMIT \(--rate-limit\) must be an integer from 0 to/,
    );
    oneLine(
      await runCli(['serve', '--clock', 'sundial']),
      2,
      /ACACIA_CLOCK \(--clock\) must be one of system, manual \(got "sundial"\)/,
    );
  });

  it('the API port or the gateway port in use: which setting, and how to choose another', async () => {
    oneLine(
      await serve({ ACACIA_PORT: String(takenPort) }),
      1,
      new RegExp(
        `^error: ACACIA_PORT \\(--port\\): port ${takenPort} on 127\\.0\\.0\\.1 is in use .*0 picks a free one`,
      ),
    );
    oneLine(
      await serve({ ACACIA_GATEWAY_PORT: String(takenPort) }),
      1,
      new RegExp(`^error: ACACIA_GATEWAY_PORT \\(--gateway-port\\): port ${takenPort} on 127\\.0\\.0\\.1 is in use`),
    );
  });

  it('a data directory that cannot be written: where, why, and the fix', async () => {
    // A file where the directory should be fails for every user, root included.
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    oneLine(
      await serve({ ACACIA_DATA_DIR: path.join(file, 'data'), ACACIA_BOOTSTRAP_API_KEY: '' }),
      1,
      new RegExp(
        '^error: ACACIA_DATA_DIR \\(--data-dir\\): .*a-file/data cannot be written ' +
          '\\(a file is in the way of a directory\\); choose a directory',
      ),
    );
    if (process.getuid?.() !== 0) {
      const locked = mkdtempSync(path.join(dir, 'locked-'));
      chmodSync(locked, 0o500);
      oneLine(
        await serve({ ACACIA_DATA_DIR: path.join(locked, 'data'), ACACIA_BOOTSTRAP_API_KEY: '' }),
        1,
        /ACACIA_DATA_DIR \(--data-dir\): .* cannot be written \(permission denied\)/,
      );
    }
  });

  it('PostgreSQL unreachable: the host and port, and what to do', async () => {
    oneLine(
      await serve({ DATABASE_URL: 'postgres://postgres@127.0.0.1:9/acacia' }),
      1,
      /^error: DATABASE_URL \(--database-url\): cannot reach PostgreSQL at 127\.0\.0\.1:9 \(ECONNREFUSED\); start it/,
    );
  });

  it('a PostgreSQL database that does not exist: its name and how to create it', async (t) => {
    if (!pgAdminUrl) return t.skip('needs PostgreSQL (the suite on PostgreSQL runs it)');
    const url = new URL(pgAdminUrl);
    url.pathname = '/acacia_no_such_database';
    oneLine(
      await serve({ DATABASE_URL: url.toString() }),
      1,
      new RegExp(
        '^error: DATABASE_URL \\(--database-url\\): database "acacia_no_such_database" does not exist on .*; ' +
          'create it \\(createdb acacia_no_such_database\\)',
      ),
    );
  });
});
