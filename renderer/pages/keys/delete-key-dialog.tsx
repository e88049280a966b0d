import type { AccessKeyView } from '../../../shared/api-types.js';
import { ActionConfirmDialog } from '../../app/action-confirm-dialog.js';
import { useToasts } from '../../components/toasts.js';
import { useDeleteKey } from '../../data/keys.js';
import type { KeptSecrets } from './use-kept-secrets.js';

/** Delete a key (or revoke one browser session), confirmed; a key's secret leaves the OS keychain with it. */
export function DeleteKeyDialog({ target, secrets, onClose }: { target: AccessKeyView | null; secrets: KeptSecrets; onClose: () => void }) {
  const toasts = useToasts();
  const remove = useDeleteKey();
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
      title={target?.session ? 'Revoke this browser session?' : `Delete the key “${target?.name ?? ''}”?`}
      confirmLabel={target?.session ? 'Revoke' : 'Delete key'}
      busyLabel={target?.session ? 'Revoking…' : 'Deleting…'}
    >
      {target?.session ? (
        <p>
          “{target.name}” is signed out at its next request. Whoever uses that window signs in again with a new link from <code>pinfold open</code>.
        </p>
      ) : (
        <>
          <p>Every script and app that uses it is refused from its next request on. This cannot be undone: a new key gets a new secret.</p>
          {target && secrets.kept.has(target.access_key) ? <p>Its secret is removed from the OS keychain too.</p> : null}
        </>
      )}
    </ActionConfirmDialog>
  );
}
