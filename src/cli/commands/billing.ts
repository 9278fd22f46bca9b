import type { Command } from 'commander';
import { apiGroup } from '../api-command.js';

export function billingCommands(program: Command): void {
  apiGroup(program, 'billing', 'Prices, credit and standing (credit, status and account for org-admin keys)', [
    { verb: 'pricing', endpoint: 'getResourcePricing' },
    { verb: 'credit', endpoint: 'getCredit' },
    { verb: 'status', endpoint: 'getBillingStatus' },
    { verb: 'validation', endpoint: 'getBillingValidation' },
    { verb: 'account', endpoint: 'getBillingAccount' },
    { verb: 'cards', endpoint: 'getCreditCards' },
    { verb: 'card-delete', endpoint: 'deleteCreditCard', args: ['cardID'] },
    { verb: 'card-default', endpoint: 'setDefaultCreditCard', args: ['cardID'] },
    { verb: 'pay-invoice', endpoint: 'payInvoice' },
    { verb: 'session', endpoint: 'createBillingSession' },
    { verb: 'chat', endpoint: 'onboardingChat', args: ['workspaceID'] },
  ]);
}
