import type { RoleVerifier } from '../domain/cloud-provider-operations.js';
import type { AccountDriver } from './drivers/driver.js';

/** Cloud provider validation (operation 19) answered by the account driver. */
export function roleVerifier(accounts: AccountDriver): RoleVerifier {
  return {
    canAssumeRole: (check) =>
      accounts.validate(
        {
          platform: check.platform,
          region: check.region,
          roleArn: check.role_arn,
          roleExternalId: check.role_external_id,
        },
        { testEnv: check.x_test_env },
      ),
  };
}
