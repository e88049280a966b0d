import { useState } from 'react';
import type { AccessKeyListing } from '../../../shared/api-types.js';
import { ActionConfirmDialog } from '../../app/action-confirm-dialog.js';
import { Button } from '../../components/button.js';
import { EmptyState } from '../../components/empty-state.js';
import { Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { useCreateUserKey, useDeleteUserKey, usePartnerUserKeys } from '../../data/partners.js';
import { AccessKeysTable } from '../keys/access-keys-table.js';
import { KeyForm } from '../keys/key-form.js';
import { SecretOnce } from '../keys/secret-once.js';
import { useKeyCreation } from '../keys/use-key-creation.js';

export interface UserKeysProps {
  uuid: string;
  userName: string;
}

/** A user's access keys, as its partner manages them: create (the secret shown once), list, delete. */
export function UserKeys({ uuid, userName }: UserKeysProps) {
  const toasts = useToasts();
  const keys = usePartnerUserKeys(uuid);
  const create = useCreateUserKey(uuid);
  const creating = useKeyCreation(create);
  const { creation } = creating;
  const remove = useDeleteUserKey(uuid);
  const [deleting, setDeleting] = useState<AccessKeyListing | null>(null);

  return (
    <Section
      title="Access keys"
      description={`The keys ${userName} uses with the API. Give them to the user; a deleted key stops working at once.`}
      actions={
        creation.step === 'closed' ? (
          <Button icon="plus" onClick={creating.start}>
            Create key
          </Button>
        ) : null
      }
    >
      <div className="stack">
        {creation.step === 'form' ? (
          <KeyForm
            existingNames={keys.data?.map((key) => key.name) ?? []}
            busy={creating.pending}
            error={creating.error}
            onSubmit={creating.submit}
            onCancel={creating.close}
          />
        ) : null}
        {creation.step === 'created' ? (
          <SecretOnce name={creation.name} owner={userName} level={3} created={creation.key} keychain={creation.keychain} onDone={creating.close} />
        ) : null}
        <AccessKeysTable
          label={`Access keys of ${userName}`}
          keys={keys.data}
          loading={keys.loading}
          waiting={keys.waiting}
          error={keys.error}
          onRetry={keys.reload}
          onDelete={setDeleting}
          empty={
            <EmptyState icon="keys" title="No keys yet">
              Create a key for {userName}, with only the permissions it needs.
            </EmptyState>
          }
        />
      </div>
      <ActionConfirmDialog
        target={deleting}
        action={remove}
        onDone={(_result, key) => toasts.show(`Deleted the key “${key.name}” of ${userName}.`)}
        onClose={() => setDeleting(null)}
        title={`Delete the key “${deleting?.name ?? ''}” of ${userName}?`}
        confirmLabel="Delete key"
        busyLabel="Deleting…"
      >
        <p>Every app that uses it is refused from its next request on. This cannot be undone: a new key gets a new secret.</p>
      </ActionConfirmDialog>
    </Section>
  );
}
