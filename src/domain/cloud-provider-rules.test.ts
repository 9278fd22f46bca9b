import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultCatalog } from './catalog.js';
import {
  checkRegistration,
  mergeNodeGroups,
  parseAwsRoleArn,
  renderComponentVersions,
} from './cloud-provider-rules.js';
import { Problems, type AppError } from './errors.js';

function problemsOf(fn: (p: Problems) => void): string[] {
  const problems = new Problems();
  fn(problems);
  try {
    problems.throwIfAny();
    return [];
  } catch (err) {
    return (err as AppError).details.map((d) => d.field);
  }
}

describe('cloud provider rules', () => {
  it('parses IAM role ARNs with and without a path', () => {
    assert.deepEqual(parseAwsRoleArn('arn:aws:iam::123456789012:role/acacia'), {
      account: '123456789012',
      roleName: 'acacia',
    });
    assert.deepEqual(parseAwsRoleArn('arn:aws:iam::123456789012:role/ops/team/acacia-x'), {
      account: '123456789012',
      roleName: 'acacia-x',
    });
    for (const bad of [
      'arn:aws:iam::12345:role/x',
      'arn:aws:iam::123456789012:user/x',
      'arn:aws:iam::123456789012:role/',
      'role/x',
    ]) {
      assert.equal(parseAwsRoleArn(bad), undefined, bad);
    }
  });

  it('checks platform, region, ARN and account together', () => {
    const fields = { account_id: 'options.account_id' };
    assert.deepEqual(
      problemsOf((p) => checkRegistration(p, defaultCatalog, {}, fields)),
      ['platform', 'region', 'role_arn'],
    );
    assert.deepEqual(
      problemsOf((p) =>
        checkRegistration(p, defaultCatalog, { platform: 'aws', region: 'mars-1', role_arn: 'nope' }, fields),
      ),
      ['region', 'role_arn'],
    );
    assert.deepEqual(
      problemsOf((p) =>
        checkRegistration(
          p,
          defaultCatalog,
          {
            platform: 'aws',
            region: 'us-east-1',
            role_arn: 'arn:aws:iam::123456789012:role/r',
            account_id: '999999999999',
          },
          fields,
        ),
      ),
      ['options.account_id'],
    );
    assert.deepEqual(
      problemsOf((p) =>
        checkRegistration(
          p,
          defaultCatalog,
          { platform: 'gcp', region: 'us-central1', role_arn: 'sa@proj.iam' },
          fields,
        ),
      ),
      [],
    );
  });

  it('merges node groups field by field and keeps min ≤ max', () => {
    const current = { ng_16: { min_size: 0, max_size: 4, overprovisioning_factor: 0 } };
    const problems = new Problems();
    const merged = mergeNodeGroups(problems, current, {
      ng_16: { max_size: 8 },
      ng_32: { min_size: 1, max_size: 2 },
      prefetch_image_list: ['img'],
    });
    assert.deepEqual(merged, {
      ng_16: { min_size: 0, max_size: 8, overprovisioning_factor: 0 },
      ng_32: { min_size: 1, max_size: 2, overprovisioning_factor: 0 },
      prefetch_image_list: ['img'],
    });
    assert.deepEqual(
      problemsOf((p) => mergeNodeGroups(p, current, { ng_16: { min_size: 5 } })),
      ['node_group_config.ng_16.min_size'],
    );
  });

  it('renders component versions sorted by name', () => {
    assert.equal(renderComponentVersions({ b: '2', a: '1.0' }), 'a=1.0,b=2');
  });
});
