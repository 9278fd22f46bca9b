import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientOf, displayAddress, inRange, normaliseCidr, parseCaller, parseRange } from './cidr.js';

describe('normaliseCidr', () => {
  const ok: Array<[string, string]> = [
    ['10.0.0.5', '10.0.0.5/32'],
    ['10.0.0.0/24', '10.0.0.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8::1', '2001:db8::1/128'],
    ['2001:0db8:0000::/32', '2001:db8::/32'],
    ['::/0', '::/0'],
    ['::ffff:192.0.2.7', '192.0.2.7/32'],
    ['::ffff:192.0.2.0/120', '192.0.2.0/24'],
  ];
  for (const [input, expected] of ok) {
    it(`${input} → ${expected}`, () => assert.deepEqual(normaliseCidr(input), { ok: true, cidr: expected }));
  }

  it('refuses host bits and names the network', () => {
    assert.deepEqual(normaliseCidr('10.0.0.5/24'), {
      ok: false,
      reason: '10.0.0.5/24 has host bits set; did you mean 10.0.0.0/24?',
    });
    const v6 = normaliseCidr('2001:db8::1/64');
    assert.equal(v6.ok, false);
    assert.match(!v6.ok ? v6.reason : '', /did you mean 2001:db8::\/64\?/);
  });

  for (const bad of [
    '',
    'example.com',
    '10.0.0',
    '10.0.0.256',
    '010.0.0.1',
    '10.0.0.0/33',
    '10.0.0.0/',
    '10.0.0.0/abc',
    '::1/129',
    'fe80::1%eth0',
    ' 10.0.0.1',
  ]) {
    it(`refuses ${JSON.stringify(bad)}`, () => assert.equal(normaliseCidr(bad).ok, false));
  }
});

describe('inRange', () => {
  it('matches IPv4, IPv6 and IPv4-mapped callers', () => {
    const v4 = parseRange('127.0.0.0/8');
    const v6 = parseRange('::1/128');
    assert.equal(inRange(parseCaller('127.0.0.1')!, v4), true);
    assert.equal(inRange(parseCaller('::ffff:127.0.0.1')!, v4), true);
    assert.equal(inRange(parseCaller('128.0.0.1')!, v4), false);
    assert.equal(inRange(parseCaller('::1')!, v6), true);
    assert.equal(inRange(parseCaller('::1')!, v4), false);
    assert.equal(inRange(parseCaller('127.0.0.1')!, v6), false);
    assert.equal(inRange(parseCaller('fe80::1%eth0')!, parseRange('fe80::/10')), true);
    assert.equal(parseCaller('not-an-ip'), undefined);
  });
});

describe('displayAddress', () => {
  it('shows IPv4-mapped callers as IPv4 and IPv6 compactly', () => {
    assert.equal(displayAddress('::ffff:127.0.0.1'), '127.0.0.1');
    assert.equal(displayAddress('0:0:0:0:0:0:0:1'), '::1');
    assert.equal(displayAddress('weird'), 'weird');
  });
});

describe('clientOf', () => {
  it('counts an IPv4 address, also when mapped into IPv6, as itself', () => {
    assert.equal(clientOf('203.0.113.7'), '203.0.113.7');
    assert.equal(clientOf('::ffff:203.0.113.7'), '203.0.113.7');
  });

  it('counts every address of an IPv6 /64 as one client', () => {
    assert.equal(clientOf('2001:db8:1:2::1'), clientOf('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    assert.notEqual(clientOf('2001:db8:1:2::1'), clientOf('2001:db8:1:3::1'));
    assert.equal(clientOf('fe80::1%eth0'), 'fe80:0:0:0::/64');
  });

  it('has no client for what is not an address', () => {
    assert.equal(clientOf(undefined), undefined);
    assert.equal(clientOf('not-an-address'), undefined);
  });
});
