import { useState } from 'react';
import { api } from '../api/endpoints.js';
import type { AddonConfigRecord, AddonRecord } from '../api/types.js';
import { useTitle } from '../router.js';
import { useSession } from '../session.js';
import { useLiveLoad } from '../ui/data.js';
import { ConfirmButton } from '../ui/dialog.js';
import { when } from '../ui/format.js';
import { Form, SubmitButton, TextField, text, useForm } from '../ui/forms.js';
import { Empty, LoadState, PageHeader, Section } from '../ui/page.js';

/** Configs are read by name (the API lists one name at a time): look one up, add one, delete one. */
function Configs({ addon, canEdit }: { addon: AddonRecord; canEdit: boolean }) {
  const installed = addon.installed_addons_id ?? '';
  const [name, setName] = useState<string>();
  const [configs, setConfigs] = useState<AddonConfigRecord[]>();
  const lookUp = useForm();
  const add = useForm();
  const show = async (configName: string) => {
    setName(configName);
    setConfigs(await api.addons.listConfigs(installed, configName));
  };
  return (
    <div className="subsection">
      <h3>Configurations of {addon.title}</h3>
      <Form
        form={lookUp}
        label={`Look up ${addon.title} configurations`}
        onSubmit={(d) => show(text(d, 'config_name') ?? '')}
      >
        <div className="row row-end">
          <TextField name="config_name" label="Configuration name" spellCheck={false} />
          <SubmitButton>Show</SubmitButton>
        </div>
      </Form>
      {configs && name !== undefined ? (
        configs.length === 0 ? (
          <Empty>No configuration named “{name}”.</Empty>
        ) : (
          <ul className="configs">
            {configs.map((c) => (
              <li key={c.id}>
                <div>
                  <span className="strong">{c.config_name}</span>{' '}
                  <span className="muted small">{when(c.created_at)}</span>
                  <pre>{c.config_value}</pre>
                </div>
                {canEdit ? (
                  <ConfirmButton
                    label="Delete"
                    ariaLabel={`Delete configuration ${c.config_name} of ${when(c.created_at)}`}
                    title={`Delete this ${c.config_name} configuration?`}
                    message={<p>Workspaces using {addon.title} no longer see it.</p>}
                    confirmLabel="Delete configuration"
                    danger
                    action={async () => {
                      await api.addons.deleteConfig(installed, c.id);
                      await show(name);
                    }}
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )
      ) : null}
      {canEdit ? (
        <Form
          form={add}
          label={`Add a ${addon.title} configuration`}
          onSubmit={async (d) => {
            const configName = text(d, 'config_name') ?? '';
            await api.addons.createConfig(installed, {
              config_name: configName,
              config_value: text(d, 'config_value') ?? '',
            });
            (add.ref.current as HTMLFormElement | null)?.reset();
            await show(configName);
          }}
        >
          <div className="row">
            <TextField name="config_name" label="New configuration name" spellCheck={false} />
            <TextField name="config_value" label="Value" spellCheck={false} />
          </div>
          <div className="actions">
            <SubmitButton>Add configuration</SubmitButton>
          </div>
        </Form>
      ) : null}
    </div>
  );
}

export function AddonsPage() {
  useTitle('Add-ons');
  const session = useSession();
  const canEdit = session.can('org:admin');
  const catalog = useLiveLoad('addons', api.addons.catalog, (e) =>
    ['installed_addon', 'addon_config'].includes(e.resource_kind),
  );
  const install = (addon: AddonRecord, enable: boolean) => async () => {
    await api.addons.install(addon.addons_id, { enable: enable ? 'true' : 'false' });
    catalog.reload();
  };
  return (
    <>
      <PageHeader title="Add-ons">
        <p className="muted">Add-ons are installed for the whole organisation, then enabled per workspace.</p>
      </PageHeader>
      <LoadState error={catalog.error} loading={!catalog.data}>
        <div className="grid">
          {catalog.data?.map((a) => (
            <Section
              key={a.addons_id}
              id={`addon-${a.unique_name}`}
              title={a.title}
              actions={
                canEdit ? (
                  a.installed && a.enabled ? (
                    <ConfirmButton
                      label="Disable"
                      ariaLabel={`Disable ${a.title}`}
                      title={`Disable ${a.title}?`}
                      message={<p>Workspaces can no longer enable it. It is refused while workspaces use it.</p>}
                      confirmLabel="Disable add-on"
                      danger
                      action={install(a, false)}
                    />
                  ) : (
                    <ConfirmButton
                      label={a.installed ? 'Enable' : 'Install'}
                      ariaLabel={`${a.installed ? 'Enable' : 'Install'} ${a.title}`}
                      title={`${a.installed ? 'Enable' : 'Install'} ${a.title}?`}
                      message={<p>Workspaces of the organisation can then enable {a.title}.</p>}
                      confirmLabel={a.installed ? 'Enable add-on' : 'Install add-on'}
                      action={install(a, true)}
                    />
                  )
                ) : null
              }
            >
              <p>{a.description}</p>
              <p className="muted small">
                {a.is_free ? 'Free' : 'Paid'} ·{' '}
                {a.installed ? (a.enabled ? 'installed and enabled' : 'installed, disabled') : 'not installed'}
              </p>
              {a.installed ? <Configs addon={a} canEdit={canEdit} /> : null}
            </Section>
          ))}
        </div>
      </LoadState>
    </>
  );
}
