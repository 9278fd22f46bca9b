import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { growthExponent, LINEAR_EXPONENT } from '../../test/helpers/growth.js';
import { credentialsFrom } from './credentials.js';
import { queryOf, routeRequest } from './routing.js';

const id = '3f1c2d4e-0000-4000-8000-000000000001';

describe('routeRequest', () => {
  it('routes by proxy_host, with or without a port, in any case', () => {
    assert.deepEqual(routeRequest(`${id}.us-east-1.i.localhost`, '/api/ping?x=1', 'localhost'), {
      workspaceId: id,
      path: '/api/ping',
    });
    assert.deepEqual(routeRequest(`${id.toUpperCase()}.US-EAST-1.i.LOCALHOST:14240`, '/', 'localhost'), {
      workspaceId: id,
      path: '/',
    });
  });

  it('routes by /w/<id>/ prefix when Host is not a proxy_host', () => {
    assert.deepEqual(routeRequest('127.0.0.1:14240', `/w/${id}/restpp/echo?a=b`, 'localhost'), {
      workspaceId: id,
      path: '/restpp/echo',
    });
    assert.deepEqual(routeRequest(undefined, `/w/${id}`, 'localhost'), { workspaceId: id, path: '/' });
  });

  it('routes a request naming no workspace to the default one, when there is one', () => {
    assert.equal(routeRequest('127.0.0.1:14240', '/restpp/echo', 'localhost'), undefined);
    assert.deepEqual(routeRequest('127.0.0.1:14240', '/restpp/echo?a=b', 'localhost', id), {
      workspaceId: id,
      path: '/restpp/echo',
    });
    const other = '3f1c2d4e-0000-4000-8000-000000000002';
    assert.deepEqual(routeRequest(undefined, `/w/${other}/api/ping`, 'localhost', id), {
      workspaceId: other,
      path: '/api/ping',
    });
  });

  it('cuts the query off in time linear in the URL, whatever follows each ?', () => {
    const url = (n: number) => `/w/${id}/restpp/echo${'?'.repeat(n)}\u2028`;
    assert.deepEqual(routeRequest(undefined, url(3), 'localhost'), { workspaceId: id, path: '/restpp/echo' });
    const exponent = growthExponent((n) => routeRequest(`${id}.us-east-1.i.localhost`, url(n), 'localhost'), 2000);
    // A pattern tried again after each ? made it quadratic.
    assert.ok(exponent < LINEAR_EXPONENT, `cost grew as the length to the power ${exponent.toFixed(2)}`);
  });

  it('reads the query up to a fragment, in time linear in the URL', () => {
    assert.equal(queryOf('/a?b=1&c=2#frag'), 'b=1&c=2');
    assert.equal(queryOf('/a#x?b'), 'b');
    assert.equal(queryOf('/a'), '');
    const url = (n: number) => `/a?${'#'.repeat(n)}\u2028`;
    const exponent = growthExponent((n) => queryOf(url(n)), 2000);
    assert.ok(exponent < LINEAR_EXPONENT, `cost grew as the length to the power ${exponent.toFixed(2)}`);
  });

  it('finds nothing otherwise', () => {
    assert.equal(routeRequest('example.com', '/api/ping', 'localhost'), undefined);
    assert.equal(routeRequest(`a.b.${id}.us-east-1.i.localhost`, '/api/ping', 'localhost'), undefined);
    assert.equal(routeRequest(`${id}.us-east-1.i.other.test`, '/api/ping', 'localhost'), undefined);
  });
});

describe('credentialsFrom', () => {
  const header = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
  it('splits Basic credentials at the first colon, so passwords may contain colons', () => {
    assert.deepEqual(credentialsFrom(header('alice:pa:ss')), {
      kind: 'password',
      username: 'alice',
      password: 'pa:ss',
    });
  });
  it('reads the user __GSQL__secret as a secret and Bearer as a token', () => {
    assert.deepEqual(credentialsFrom(header('__GSQL__secret:abc123')), { kind: 'secret', secret: 'abc123' });
    assert.deepEqual(credentialsFrom('Bearer abc123'), { kind: 'token', token: 'abc123' });
    assert.deepEqual(credentialsFrom('GSQL-Secret fc6p0i2ijjt031n0sja6m9ci70p232h7'), {
      kind: 'secret',
      secret: 'fc6p0i2ijjt031n0sja6m9ci70p232h7',
    });
    assert.deepEqual(credentialsFrom('gsql-secret  abc123 '), { kind: 'secret', secret: 'abc123' });
    assert.equal(credentialsFrom('GSQL-Secret'), undefined);
    assert.deepEqual(credentialsFrom('bearer  abc123 '), { kind: 'token', token: 'abc123' });
  });
  it('ignores other schemes and malformed values', () => {
    assert.equal(credentialsFrom(undefined), undefined);
    assert.equal(credentialsFrom('Digest abc'), undefined);
    assert.equal(credentialsFrom('Bearer'), undefined);
    assert.equal(credentialsFrom(header('no-colon')), undefined);
    assert.equal(credentialsFrom(header(':empty-user')), undefined);
    assert.equal(credentialsFrom(header('__GSQL__secret:')), undefined);
  });
});
