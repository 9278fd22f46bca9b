import { useState } from 'react';
import { api } from '../api/endpoints.js';
import type { CloudProviderRecord, CreateCloudProviderBody } from '../api/types.js';
import { useTitle } from '../router.js';
import { useSession } from '../session.js';
import { StatusBadge } from '../ui/badge.js';
import { useLiveLoad } from '../ui/data.js';
import { DeleteButton } from '../ui/dialog.js';
import { FormDialog } from '../ui/form-dialog.js';
import { when } from '../ui/format.js';
import { CheckboxField, SelectField, choices, TextField, checked, text } from '../ui/forms.js';
import { PageHeader } from '../ui/page.js';
import { Note, ResourceTable, type TableOf } from '../ui/resource-table.js';

type Platform = CreateCloudProviderBody['platform'];

/** The fields of a registration: the regions, and what the identity is called, follow the platform chosen. */
function ProviderFields() {
  const { meta } = useSession();
  const [platform, setPlatform] = useState<Platform>('aws');
  const regions = meta?.regions_by_platform[platform] ?? [];
  return (
    <>
      <TextField name="name" label="Name" hint="Optional." />
      <SelectField
        name="platform"
        label="Platform"
        options={choices({ aws: 'AWS', azure: 'Azure', gcp: 'Google Cloud' })}
        defaultValue={platform}
        onChange={(v) => setPlatform(v as Platform)}
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
    </>
  );
}

function register(data: FormData) {
  const account = text(data, 'options.account_id');
  return api.cloudProviders.create({
    name: text(data, 'name'),
    platform: text(data, 'platform') as Platform,
    region: text(data, 'region') ?? '',
    role_arn: text(data, 'role_arn') ?? '',
    role_external_id: text(data, 'role_external_id'),
    options: {
      ...(account ? { account_id: account } : {}),
      secure_connection: checked(data, 'options.secure_connection'),
    },
  });
}

/** Public first, then by platform and region. */
const byKind = (a: CloudProviderRecord, b: CloudProviderRecord) =>
  a.type.localeCompare(b.type) || a.platform.localeCompare(b.platform) || a.region.localeCompare(b.region);

const providerTable: TableOf<CloudProviderRecord> = {
  key: (p) => p.id,
  empty: 'No cloud providers.',
  sort: byKind,
  columns: [
    {
      label: 'Name',
      className: 'strong',
      cell: (p) => (
        <>
          {p.name}
          <Note error>{p.last_error}</Note>
        </>
      ),
    },
    { label: 'Type', cell: (p) => p.type },
    {
      label: 'Where',
      cell: (p) => (
        <>
          {p.platform} · {p.region}
        </>
      ),
    },
    { label: 'Status', cell: (p) => <StatusBadge status={p.status} /> },
    { label: 'Created', className: 'nowrap', cell: (p) => when(p.created_at) },
  ],
};

export function CloudProvidersPage() {
  useTitle('Cloud providers');
  const session = useSession();
  const providers = useLiveLoad('providers', api.cloudProviders.list, (e) => e.resource_kind === 'cloud_provider');
  const byoc = session.meta?.tier_limits.byoc ?? false;
  const canEdit = session.can('org:admin');
  return (
    <>
      <PageHeader
        title="Cloud providers"
        actions={
          canEdit && byoc ? (
            <FormDialog
              label="Register your cloud"
              title="Register a cloud account (BYOC)"
              className="primary"
              submitLabel="Register provider"
              submit={register}
              onDone={providers.reload}
            >
              <ProviderFields />
            </FormDialog>
          ) : null
        }
      >
        <p className="muted">
          Public providers are the service's own regions; private ones are cloud accounts of your organisation
          {byoc ? '.' : ' (bring-your-own-cloud needs the enterprise tier).'}
        </p>
      </PageHeader>
      <ResourceTable
        of={providerTable}
        card
        list={providers}
        actions={(p) =>
          canEdit && p.type === 'private' ? (
            <DeleteButton
              name={p.name}
              kind="provider"
              message={<p>The provider is removed. It is kept while workgroups use it.</p>}
              action={() => api.cloudProviders.delete(p.id)}
              onDone={providers.reload}
            />
          ) : null
        }
      />
    </>
  );
}
