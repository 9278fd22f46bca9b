import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPassword, passwordProblem, usernameProblem, verifyPassword } from './passwords.js';

describe('usernameProblem', () => {
  for (const good of ['alice', 'Bob_2', '_svc', 'a.b-c', 'x'.repeat(63)]) {
    it(`accepts ${good.slice(0, 10)}`, () => assert.equal(usernameProblem(good), undefined));
  }
  for (const bad of ['', '1abc', '-x', 'a b', 'ünï', 'x'.repeat(64), 'a/b']) {
    it(`refuses ${JSON.stringify(bad.slice(0, 10))}`, () => assert.match(usernameProblem(bad) ?? '', /must be/));
  }
  it('refuses reserved names in any case', () => {
    assert.match(usernameProblem('TigerGraph') ?? '', /reserved/);
    assert.match(usernameProblem('root') ?? '', /reserved/);
    assert.match(usernameProblem('admin') ?? '', /reserved/);
  });
});

describe('passwordProblem', () => {
  it('accepts a strong password', () => assert.equal(passwordProblem('Correct-horse-9', 'alice'), undefined));
  it('refuses short passwords', () => assert.match(passwordProblem('Aa1!aa', 'alice') ?? '', /at least 12/));
  it('refuses fewer than 3 character classes', () =>
    assert.match(passwordProblem('alllowercase12', 'bob') ?? '', /at least 3/));
  it('accepts three classes without symbols', () => assert.equal(passwordProblem('Lower12Upper', 'bob'), undefined));
  it('refuses a password containing the username, in any case', () => {
    assert.match(passwordProblem('xxALICE-2024yy', 'alice') ?? '', /username/);
  });
});

describe('hashPassword', () => {
  it('verifies the right password only, with a random salt', async () => {
    const a = await hashPassword('Correct-horse-9');
    const b = await hashPassword('Correct-horse-9');
    assert.notEqual(a, b);
    assert.match(a, /^scrypt\$16384\$8\$1\$/);
    assert.equal(a.includes('Correct-horse-9'), false);
    assert.equal(await verifyPassword('Correct-horse-9', a), true);
    assert.equal(await verifyPassword('correct-horse-9', a), false);
    assert.equal(await verifyPassword('x', 'garbage'), false);
  });
});
