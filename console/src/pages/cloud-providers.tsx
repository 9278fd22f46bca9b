import { useState } from 'react';
import { api } from '../api/endpoints.js';
import type { CreateCloudProviderBody } from '../api/types.js';
import { useTitle } from '../router.js';
import { useSession } from '../session.js';
import { StatusBadge } from '../ui/badge.js';
import { useLiveLoad } from '../ui/data.js';
import { ConfirmButton, DialogButton } from '../ui/dialog.js';
import { when } from '../ui/format.js';
import { CheckboxField, Form, SelectField, SubmitButton, TextField, checked, text, useForm } from '../ui/forms.js';
import { Empty, LoadState, PageHeader, RowActions } from '../ui/page.js';

function RegisterForm({ done }: { done(): void }) {
  const { meta } = useSession();
  const form = useForm();
  const [platform, setPlatform] = useState<'aws' | 'azure' | 'gcp'>('aws');
  const regions = meta?.regions_by_platform[platform] ?? [];
  return (
    <Form
      form={form}
      onSubmit={async (data) => {
        const account = text(data, 'options.account_id');
        const body: CreateCloudProviderBody = {
          name: text(data, 'name'),
          platform,
          region: text(data, 'region') ?? '',
          role_arn: text(data, 'role_arn') ?? '',
          role_external_id: text(data, 'role_external_id'),
          options: {
            ...(account ? { account_id: account } : {}),
            secure_connection: checked(data, 'options.secure_connection'),
          },
        };
        await api.cloudProviders.create(body);
        done();
      }}
    >
      <TextField name="name" label="Name" hint="Optional." />
      <SelectField
        name="platform"
        label="Platform"
        options={[
          { value: 'aws', label: 'AWS' },
          { value: 'azure', label: 'Azure' },
          { value: 'gcp', label: 'Google Cloud' },
        ]}
        defaultValue={platform}
        onChange={(v) => setPlatform(v as typeof platform)}
      />
      <SelectField key={platform} name="region" label="Region" options={regions.map((r) => ({ value: r, label: r }))} />
      <TextField
        name="role_arn"
        label={platform === 'aws' ? 'Role ARN' : 'Identity'}
        placeholder={platform === 'aws' ? 'arn:aws:iam::123456789012:role/acacia' : ''}
        spellCheck={false}
      />
      <TextField name="role_external_id" label="External id" hint="Optional." spellCheck={false} />
      <TextField name="options.account_id" label="Account id" hint="Optional; must match the role's account." />
      <CheckboxField name="options.secure_connection" label="Private, secure connection" />
      <div className="actions">
        <SubmitButton>Register provider</SubmitButton>
      </div>
    </Form>
  );
}

export function CloudProvidersPage() {
  useTitle('Cloud providers');
  const session = useSession();
  const providers = useLiveLoad('providers', api.cloudProviders.list, (e) => e.resource_kind === 'cloud_provider');
  const byoc = session.meta?.tier_limits.byoc ?? false;
  const canEdit = session.can('org:admin');
  const list = [...(providers.data ?? [])].sort(
    (a, b) => a.type.localeCompare(b.type) || a.platform.localeCompare(b.platform) || a.region.localeCompare(b.region),
  );
  return (
    <>
      <PageHeader
        title="Cloud providers"
        actions={
          canEdit && byoc ? (
            <DialogButton label="Register your cloud" title="Register a cloud account (BYOC)" className="primary">
              {(close) => (
                <RegisterForm
                  done={() => {
                    close();
                    providers.reload();
                  }}
                />
              )}
            </DialogButton>
          ) : null
        }
      >
        <p className="muted">
          Public providers are the service's own regions; private ones are cloud accounts of your organisation
          {byoc ? '.' : ' (bring-your-own-cloud needs the enterprise tier).'}
        </p>
      </PageHeader>
      <LoadState error={providers.error} loading={!providers.data}>
        {list.length === 0 ? (
          <Empty>No cloud providers.</Empty>
        ) : (
          <div className="card">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Where</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((p) => (
                  <tr key={p.id}>
                    <td data-label="Name" className="strong">
                      {p.name}
                      {p.last_error ? <div className="error-text small">{p.last_error}</div> : null}
                    </td>
                    <td data-label="Type">{p.type}</td>
                    <td data-label="Where">
                      {p.platform} · {p.region}
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={p.status} />
                    </td>
                    <td data-label="Created" className="nowrap">
                      {when(p.created_at)}
                    </td>
                    <RowActions>
                      {canEdit && p.type === 'private' ? (
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete ${p.name}`}
                          title={`Delete ${p.name}?`}
                          message={<p>The provider is removed. It is kept while workgroups use it.</p>}
                          confirmLabel="Delete provider"
                          danger
                          action={async () => {
                            await api.cloudProviders.delete(p.id);
                            providers.reload();
                          }}
                        />
                      ) : null}
                    </RowActions>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </LoadState>
    </>
  );
}
