import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { basicCredentials } from './app.js';
import { routeRequest } from './routing.js';

const id = '3f1c2d4e-0000-4000-8000-000000000001';

describe('routeRequest', () => {
  it('routes by proxy_host, with or without a port, in any case', () => {
    assert.deepEqual(routeRequest(`${id}.us-east-1.i.localhost`, '/api/ping?x=1', 'localhost'), { workspaceId: id, path: '/api/ping' });
    assert.deepEqual(routeRequest(`${id.toUpperCase()}.US-EAST-1.i.LOCALHOST:14240`, '/', 'localhost'), { workspaceId: id, path: '/' });
  });

  it('routes by /w/<id>/ prefix when Host is not a proxy_host', () => {
    assert.deepEqual(routeRequest('127.0.0.1:14240', `/w/${id}/restpp/echo?a=b`, 'localhost'), { workspaceId: id, path: '/restpp/echo' });
    assert.deepEqual(routeRequest(undefined, `/w/${id}`, 'localhost'), { workspaceId: id, path: '/' });
  });

  it('finds nothing otherwise', () => {
    assert.equal(routeRequest('example.com', '/api/ping', 'localhost'), undefined);
    assert.equal(routeRequest(`a.b.${id}.us-east-1.i.localhost`, '/api/ping', 'localhost'), undefined);
    assert.equal(routeRequest(`${id}.us-east-1.i.other.test`, '/api/ping', 'localhost'), undefined);
  });
});

describe('basicCredentials', () => {
  const header = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
  it('splits at the first colon, so passwords may contain colons', () => {
    assert.deepEqual(basicCredentials(header('alice:pa:ss')), { username: 'alice', password: 'pa:ss' });
  });
  it('ignores other schemes and malformed values', () => {
    assert.equal(basicCredentials(undefined), undefined);
    assert.equal(basicCredentials('Bearer abc'), undefined);
    assert.equal(basicCredentials(header('no-colon')), undefined);
    assert.equal(basicCredentials(header(':empty-user')), undefined);
  });
});
