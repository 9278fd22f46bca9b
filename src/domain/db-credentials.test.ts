import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from './errors.js';
import {
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  generatedAlias,
  maskSecret,
  newCredential,
  parseLifetime,
  randomText,
} from './db-credentials.js';

describe('data-plane credentials', () => {
  it('are 32 characters of [a-z0-9], every character about equally likely', () => {
    assert.match(newCredential(), /^[a-z0-9]{32}$/);
    const counts = new Map<string, number>();
    for (const c of randomText(36_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    assert.equal(counts.size, 36);
    for (const n of counts.values()) assert.ok(n > 800 && n < 1200, `${n} of 36 000 for one character`);
  });

  it('are listed masked as GSQL shows them, and aliases are generated as pyTigerGraph expects', () => {
    assert.equal(maskSecret('abcdefghijklmnopqrstuvwxyz012345'), 'abc****345');
    assert.match(generatedAlias(), /^AUTO_GENERATED_ALIAS_[a-z0-9]{7}$/);
  });

  it('take a lifetime as pyTigerGraph sends it, in whole seconds', () => {
    assert.equal(parseLifetime(undefined), DEFAULT_TOKEN_LIFETIME_SECONDS);
    assert.equal(parseLifetime(''), DEFAULT_TOKEN_LIFETIME_SECONDS);
    assert.equal(parseLifetime('3600'), 3600);
    assert.equal(parseLifetime(60), 60);
    for (const bad of ['0', '-1', '1.5', '1e3', 'soon', 315_360_001, true, {}]) {
      assert.throws(
        () => parseLifetime(bad),
        (err: unknown) => err instanceof AppError && err.code === 'invalid' && err.details[0]!.field === 'lifetime',
        String(bad),
      );
    }
  });
});
