import { api } from '../api/endpoints.js';
import { useTitle } from '../router.js';
import { canReadBilling } from '../permissions.js';
import { useSession } from '../session.js';
import { useLiveLoad, useLoad } from '../ui/data.js';
import { when } from '../ui/format.js';
import { LoadState, PageHeader, Section } from '../ui/page.js';

const standing = [
  'In good standing',
  'Out of credit',
  'Suspended: workspaces paused',
  'Terminated: workspaces deleted',
];

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency, maximumFractionDigits: 6 }).format(amount);

/** Credit, standing and the grace periods (org admins and billing roles), and the price sheet (everyone). */
export function BillingPage() {
  useTitle('Billing');
  const admin = canReadBilling(useSession().key);
  const account = useLiveLoad(
    'billing-account',
    () => (admin ? api.billing.account() : Promise.resolve(undefined)),
    (e) => e.resource_kind === 'organisation',
  );
  const pricing = useLoad('billing-pricing', () => api.billing.pricing());
  const a = account.data;
  const rows = (pricing.data?.workspace_pricing ?? []).filter(
    (p) => p.platform === 'aws' && p.region === 'us-east-1' && p.ha === 'false',
  );
  const insights = pricing.data?.addon_pricing.filter((p) => p.type === 'insights' && p.region === 'us-east-1');
  return (
    <>
      <PageHeader title="Billing" />
      <div className="grid">
        {admin ? (
          <Section title="Credit">
            <LoadState error={account.error} loading={!a && !account.error}>
              {a ? (
                <dl className="facts">
                  <div>
                    <dt>Balance</dt>
                    <dd>{money(a.balance, a.currency)}</dd>
                  </div>
                  <div>
                    <dt>Status</dt>
                    <dd>{standing[a.status]}</dd>
                  </div>
                  <div>
                    <dt>Granted</dt>
                    <dd>{money(a.granted, a.currency)}</dd>
                  </div>
                  <div>
                    <dt>Charged</dt>
                    <dd>{money(a.charged, a.currency)}</dd>
                  </div>
                  <div>
                    <dt>Out of credit since</dt>
                    <dd>{a.delinquent_since ? when(a.delinquent_since) : 'never'}</dd>
                  </div>
                  {a.suspend_at ? (
                    <div>
                      <dt>Workspaces paused at</dt>
                      <dd>{when(a.suspend_at)}</dd>
                    </div>
                  ) : null}
                  {a.terminate_at ? (
                    <div>
                      <dt>Workspaces deleted at</dt>
                      <dd>{when(a.terminate_at)}</dd>
                    </div>
                  ) : null}
                </dl>
              ) : null}
            </LoadState>
          </Section>
        ) : (
          <p className="muted">Only org admins and billing admins or viewers see the credit and the standing.</p>
        )}
        <Section title="Prices in aws us-east-1">
          <LoadState error={pricing.error} loading={!pricing.data && !pricing.error}>
            <p className="muted">Per hour; high availability and other regions cost more.</p>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Size</th>
                  <th scope="col">Compute</th>
                  <th scope="col">With Insights</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => {
                  const addon = insights?.find((i) => i.workspace_type === p.workspace_type)?.price_per_hour ?? 0;
                  return (
                    <tr key={p.workspace_type}>
                      <td>{p.workspace_type}</td>
                      <td>{money(p.price_per_hour, 'USD')}</td>
                      <td>{money(p.price_per_hour + addon, 'USD')}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </LoadState>
        </Section>
      </div>
    </>
  );
}
