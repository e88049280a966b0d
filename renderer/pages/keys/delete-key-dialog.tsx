import { useState } from 'react';
import type { AccessKeyView } from '../../../shared/api-types.js';
import { ActionConfirmDialog } from '../../app/action-confirm-dialog.js';
import { TextField } from '../../components/text-field.js';
import { useToasts } from '../../components/toasts.js';
import { useDeleteKey } from '../../data/keys.js';
import type { KeptSecrets } from './use-kept-secrets.js';

/** What deleting the owner key stops, and the key's name typed to confirm it. */
function OwnerKeyWarning({ name, typed, onType }: { name: string; typed: string; onType: (text: string) => void }) {
  return (
    <>
      <p>
        This is the <strong>owner key</strong>, the admin key Pinfold keeps in its data folder. The command line beside the app (<code>pinfold sync</code>,{' '}
        <code>pinfold gc</code>, <code>pinfold open</code>) and every script that reads <code>owner-key.json</code> use it: they are refused from their next
        request until the service starts again and makes a new owner key.
      </p>
      <TextField label={`Type “${name}” to confirm`} value={typed} onChange={(event) => onType(event.target.value)} autoComplete="off" spellCheck={false} />
    </>
  );
}

/**
 * Delete a key (or revoke one browser session), confirmed; a key's secret leaves the OS keychain with it.
 * The owner key asks for its name typed first: scripts and the CLI on this machine depend on it.
 */
export function DeleteKeyDialog({ target, secrets, onClose }: { target: AccessKeyView | null; secrets: KeptSecrets; onClose: () => void }) {
  const toasts = useToasts();
  const remove = useDeleteKey();
  const [typed, setTyped] = useState('');
  const [typedFor, setTypedFor] = useState<string | null>(null);
  // What was typed belongs to the key it was typed for: another key's dialog starts empty.
  if (typedFor !== (target?.access_key ?? null)) {
    setTypedFor(target?.access_key ?? null);
    setTyped('');
  }
  const ownerKey = target !== null && target.owner === true;
  const done = async (key: AccessKeyView) => {
    if (secrets.kept.has(key.access_key)) await secrets.forget(key.access_key);
    toasts.show(key.session ? `Revoked “${key.name}”.` : `Deleted the key “${key.name}”.`);
  };
  return (
    <ActionConfirmDialog
      target={target}
      action={remove}
      onDone={(_result, key) => done(key)}
      onClose={onClose}
      title={target?.session ? 'Revoke this browser session?' : `Delete the ${ownerKey ? 'owner ' : ''}key “${target?.name ?? ''}”?`}
      confirmLabel={target?.session ? 'Revoke' : 'Delete key'}
      busyLabel={target?.session ? 'Revoking…' : 'Deleting…'}
      confirmDisabled={ownerKey && typed !== target.name}
    >
      {target?.session ? (
        <p>
          “{target.name}” is signed out at its next request. Whoever uses that window signs in again with a new link from <code>pinfold open</code>.
        </p>
      ) : (
        <>
          {ownerKey ? null : <p>Every script and app that uses it is refused from its next request on. This cannot be undone: a new key gets a new secret.</p>}
          {target && secrets.kept.has(target.access_key) ? <p>Its secret is removed from the OS keychain too.</p> : null}
          {ownerKey ? <OwnerKeyWarning name={target.name} typed={typed} onType={setTyped} /> : null}
        </>
      )}
    </ActionConfirmDialog>
  );
}
