import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.port, 8080);
    assert.equal(c.gatewayPort, 14240);
    assert.equal(c.dataDir, path.resolve('./data'));
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.clock, 'system');
    assert.equal(c.simSpeed, 0.02, 'the fast pace');
    assert.equal(c.logFormat, 'auto');
    assert.equal(c.baseDomain, 'localhost');
    assert.equal(c.logLevel, 'info');
    assert.equal(c.rateLimit, 6000);
    assert.deepEqual(
      [c.headersTimeoutMs, c.requestTimeoutMs, c.keepAliveTimeoutMs, c.maxConnections],
      [10_000, 30_000, 72_000, 1000],
    );
    assert.equal(c.faultInjection, false, 'a plain start refuses x_test_env');
    assert.equal(c.maxConnectionsPerClient, 100);
    assert.deepEqual(c.corsOrigins, [], 'no browser origin is allowed by default');
    assert.equal(c.driver, 'simulated');
    assert.equal(c.retryBackoffMs, 2000);
    assert.ok(Object.isFrozen(c));
  });

  it('reads ACACIA_CORS_ORIGINS as origins, or * alone', () => {
    assert.deepEqual(
      loadConfig({ ACACIA_CORS_ORIGINS: 'https://console.example.com, http://localhost:5173' }).corsOrigins,
      ['https://console.example.com', 'http://localhost:5173'],
    );
    assert.deepEqual(loadConfig({ ACACIA_CORS_ORIGINS: '*' }).corsOrigins, ['*']);
    for (const bad of ['*,https://a.example', 'console.example.com', 'https://a.example/path', 'ftp://a.example'])
      assert.throws(() => loadConfig({ ACACIA_CORS_ORIGINS: bad }), /ACACIA_CORS_ORIGINS/, bad);
  });

  it('reads the retry back-off in seconds, apart from the simulation speed', () => {
    const c = loadConfig({ ACACIA_RETRY_BACKOFF: '0.5', ACACIA_SIM_SPEED: '0' });
    assert.deepEqual([c.retryBackoffMs, c.simSpeed], [500, 0]);
    assert.equal(loadConfig({ ACACIA_RETRY_BACKOFF: '0' }).retryBackoffMs, 0);
    assert.equal(loadConfig({ ACACIA_SIM_SPEED: 'realistic' }).simSpeed, 1);
    assert.equal(loadConfig({ ACACIA_SIM_SPEED: 'fast' }).simSpeed, 0.02);
    assert.equal(loadConfig({ ACACIA_SIM_SPEED: '0.5' }).simSpeed, 0.5);
  });

  it('reads the listener timeouts in seconds (fractions allowed) and the connection cap', () => {
    const c = loadConfig({
      ACACIA_HEADERS_TIMEOUT: '0.25',
      ACACIA_REQUEST_TIMEOUT: '2',
      ACACIA_KEEP_ALIVE_TIMEOUT: '5',
      ACACIA_MAX_CONNECTIONS: '0',
    });
    assert.deepEqual(
      [c.headersTimeoutMs, c.requestTimeoutMs, c.keepAliveTimeoutMs, c.maxConnections],
      [250, 2000, 5000, 0],
    );
  });

  it('turns fault injection on only when asked', () => {
    assert.equal(loadConfig({ ACACIA_FAULT_INJECTION: 'on' }).faultInjection, true);
    assert.equal(loadConfig({ ACACIA_FAULT_INJECTION: 'off' }).faultInjection, false);
  });

  const bad: Array<[string, string, RegExp]> = [
    ['ACACIA_PORT', '70000', /ACACIA_PORT must be an integer from 0 to 65535/],
    ['ACACIA_GATEWAY_PORT', '-1', /ACACIA_GATEWAY_PORT must be an integer/],
    ['ACACIA_MAX_CONNECTIONS', '1.5', /ACACIA_MAX_CONNECTIONS must be an integer/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must be a postgres/],
    ['ACACIA_BOOTSTRAP_API_KEY', 'short', /ACACIA_BOOTSTRAP_API_KEY must be 32 to 256/],
    ['ACACIA_CLOCK', 'sundial', /ACACIA_CLOCK must be one of system, manual/],
    ['ACACIA_SIM_SPEED', 'slow', /ACACIA_SIM_SPEED must be fast, realistic or a number/],
    ['ACACIA_SIM_SPEED', 'toString', /ACACIA_SIM_SPEED must be fast, realistic or a number/],
    ['ACACIA_LOG_FORMAT', 'xml', /ACACIA_LOG_FORMAT must be one of auto, json, text/],
    ['ACACIA_DRIVER', 'kubernetes', /ACACIA_DRIVER must be one of simulated\b.* \(got "kubernetes"\)/],
    ['ACACIA_RETRY_BACKOFF', '-1', /ACACIA_RETRY_BACKOFF must be a number of seconds from 0 to 3600/],
    ['ACACIA_BASE_DOMAIN', 'not a domain', /ACACIA_BASE_DOMAIN must be a DNS domain/],
    [
      'ACACIA_TRUST_PROXY',
      '10.0.0.1,not-an-address',
      /ACACIA_TRUST_PROXY has an entry that is not an address or CIDR range: "not-an-address"/,
    ],
    ['ACACIA_TRUST_PROXY', '10.0.0.1/24', /ACACIA_TRUST_PROXY has an entry .*did you mean 10.0.0.0\/24/],
    ['ACACIA_LOG_LEVEL', 'loud', /ACACIA_LOG_LEVEL must be one of/],
    ['ACACIA_RATE_LIMIT', '1.5', /ACACIA_RATE_LIMIT must be an integer/],
    ['ACACIA_HEADERS_TIMEOUT', '0', /ACACIA_HEADERS_TIMEOUT must be a number of seconds from 0.1 to 3600/],
    ['ACACIA_HEADERS_TIMEOUT', '40', /ACACIA_HEADERS_TIMEOUT must not exceed ACACIA_REQUEST_TIMEOUT/],
    ['ACACIA_REQUEST_TIMEOUT', 'soon', /ACACIA_REQUEST_TIMEOUT must be a number of seconds/],
    ['ACACIA_KEEP_ALIVE_TIMEOUT', 'long', /ACACIA_KEEP_ALIVE_TIMEOUT must be a number of seconds/],
    ['ACACIA_MAX_CONNECTIONS', '-1', /ACACIA_MAX_CONNECTIONS must be an integer/],
    ['ACACIA_MAX_CONNECTIONS_PER_CLIENT', 'many', /ACACIA_MAX_CONNECTIONS_PER_CLIENT must be an integer/],
    ['ACACIA_CONFIG', '/nonexistent/acacia.json', /ACACIA_CONFIG cannot be read as JSON/],
    ['ACACIA_FAULT_INJECTION', 'yes', /ACACIA_FAULT_INJECTION must be one of on, off/],
  ];
  for (const [name, value, message] of bad) {
    it(`names ${name} when it is invalid`, () => {
      assert.throws(() => loadConfig({ [name]: value }), message);
    });
  }

  it('normalises ACACIA_TRUST_PROXY entries and keeps the named ranges', () => {
    assert.deepEqual(loadConfig({ ACACIA_TRUST_PROXY: '10.0.0.1, loopback,2001:DB8::/32' }).trustProxy, [
      '10.0.0.1/32',
      'loopback',
      '2001:db8::/32',
    ]);
  });

  it('overrides catalogs from the ACACIA_CONFIG file and validates it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'acacia-config-'));
    const good = path.join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({ tg_versions: ['5.0.0'], regions: { aws: ['us-east-1'], gcp: [], azure: [] } }),
    );
    const c = loadConfig({ ACACIA_CONFIG: good });
    // A plain name is a stable version anyone may create and upgrade to.
    assert.deepEqual(c.catalog.tg_versions, [
      {
        name: '5.0.0',
        channel: 'stable',
        allow_create: true,
        allow_upgrade: true,
        incompatible_upgrades_from: [],
        orgs: [],
      },
    ]);
    assert.deepEqual(c.catalog.regions.aws, ['us-east-1']);
    assert.equal(c.catalog.workspace_sizes.length, 15, 'parts not given keep their defaults');

    const unknown = path.join(dir, 'unknown.json');
    writeFileSync(unknown, JSON.stringify({ colours: ['red'] }));
    assert.throws(() => loadConfig({ ACACIA_CONFIG: unknown }), /ACACIA_CONFIG is invalid/);

    const badTier = path.join(dir, 'tier.json');
    writeFileSync(
      badTier,
      JSON.stringify({ workspace_sizes: [{ typeName: 'S', cpu: 1, memory_gb: 1, partition: 1, max_topology_gb: 1 }] }),
    );
    assert.throws(() => loadConfig({ ACACIA_CONFIG: badTier }), /tier max_size "TG-4" that is not in workspace_sizes/);

    const badVersion = path.join(dir, 'version.json');
    writeFileSync(badVersion, JSON.stringify({ tg_versions: [{ name: '5.0.0', end_of_life: 'some day soon' }] }));
    assert.throws(
      () => loadConfig({ ACACIA_CONFIG: badVersion }),
      /5\.0\.0's end_of_life "some day soon" is not a date/,
    );
    writeFileSync(badVersion, JSON.stringify({ tg_versions: ['5.0.0', { name: '5.0.0', channel: 'lts' }] }));
    assert.throws(() => loadConfig({ ACACIA_CONFIG: badVersion }), /a version is listed twice/);
    writeFileSync(badVersion, JSON.stringify({ tg_versions: [{ name: '5.0.0', channel: 'nightly' }] }));
    assert.throws(() => loadConfig({ ACACIA_CONFIG: badVersion }), /ACACIA_CONFIG is invalid at \/tg_versions\/0/);
  });
});
