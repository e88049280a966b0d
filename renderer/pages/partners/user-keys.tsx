import { useState } from 'react';
import type { AccessKeyListing, NewAccessKey } from '../../../shared/api-types.js';
import { useAction } from '../../app/hooks/use-action.js';
import type { Resource } from '../../app/hooks/use-resource.js';
import { useApi } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { EmptyState } from '../../components/empty-state.js';
import { Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { AccessKeysTable } from '../keys/access-keys-table.js';
import { KeyForm, type NewKey } from '../keys/key-form.js';
import { SecretOnce } from '../keys/secret-once.js';

type Creation = { step: 'closed' } | { step: 'form' } | { step: 'created'; name: string; key: NewAccessKey };

export interface UserKeysProps {
  uuid: string;
  userName: string;
  keys: Resource<AccessKeyListing[]>;
}

/** A user's access keys, as its partner manages them: create (the secret shown once), list, delete. */
export function UserKeys({ uuid, userName, keys }: UserKeysProps) {
  const api = useApi();
  const toasts = useToasts();
  const [creation, setCreation] = useState<Creation>({ step: 'closed' });
  const create = useAction((signal, key: NewKey) => api.partners.createUserKey(uuid, { name: key.name, permissions: key.permissions }, signal));
  const [deleting, setDeleting] = useState<AccessKeyListing | null>(null);
  const remove = useAction((signal, name: string) => api.partners.deleteUserKey(uuid, name, signal));

  const startCreating = () => {
    create.clearError();
    setCreation({ step: 'form' });
  };
  const submit = async (key: NewKey) => {
    const result = await create.run(key);
    if (!result.ok) return;
    setCreation({ step: 'created', name: key.name, key: result.value });
    keys.reload();
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await remove.run(deleting.name);
    if (!result.ok) return;
    toasts.show(`Deleted the key “${deleting.name}” of ${userName}.`);
    setDeleting(null);
    keys.reload();
  };

  return (
    <Section
      title="Access keys"
      description={`The keys ${userName} uses with the API. Give them to the user; a deleted key stops working at once.`}
      actions={
        creation.step === 'closed' ? (
          <Button icon="plus" onClick={startCreating}>
            Create key
          </Button>
        ) : null
      }
    >
      <div className="stack">
        {creation.step === 'form' ? (
          <KeyForm
            existingNames={keys.data?.map((key) => key.name) ?? []}
            busy={create.pending}
            error={create.error}
            onSubmit={(key) => void submit(key)}
            onCancel={() => setCreation({ step: 'closed' })}
          />
        ) : null}
        {creation.step === 'created' ? (
          <SecretOnce
            name={creation.name}
            owner={userName}
            level={3}
            created={creation.key}
            keychain={{ kind: 'not-asked' }}
            onDone={() => setCreation({ step: 'closed' })}
          />
        ) : null}
        <AccessKeysTable
          label={`Access keys of ${userName}`}
          keys={keys.data}
          loading={keys.loading}
          waiting={keys.waiting}
          error={keys.error}
          onRetry={keys.reload}
          onDelete={(key) => {
            remove.clearError();
            setDeleting(key);
          }}
          empty={
            <EmptyState icon="keys" title="No keys yet">
              Create a key for {userName}, with only the permissions it needs.
            </EmptyState>
          }
        />
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the key “${deleting?.name ?? ''}” of ${userName}?`}
        confirmLabel="Delete key"
        busyLabel="Deleting…"
        busy={remove.pending}
        error={remove.error}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p>Every app that uses it is refused from its next request on. This cannot be undone: a new key gets a new secret.</p>
      </ConfirmDialog>
    </Section>
  );
}
