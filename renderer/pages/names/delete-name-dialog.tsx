import type { IpnsRecordView } from '../../../shared/api-types.js';
import { ActionConfirmDialog } from '../../app/action-confirm-dialog.js';
import { useToasts } from '../../components/toasts.js';
import { useDeleteName } from '../../data/names.js';
import { nameLabel } from './name-label.js';

/** Delete a name, confirmed: the name and its key leave this service (the request cache loads the list again); a refusal stays in the dialog. */
export function DeleteNameDialog({ name, onClose }: { name: IpnsRecordView | null; onClose: () => void }) {
  const toasts = useToasts();
  const remove = useDeleteName();
  return (
    <ActionConfirmDialog
      target={name}
      action={remove}
      onDone={(_result, deleted) => toasts.show(`Deleted ${nameLabel(deleted)}: the name and its key are gone from this service.`)}
      onClose={onClose}
      title={`Delete ${name ? nameLabel(name) : ''}?`}
      confirmLabel="Delete"
      busyLabel="Deleting…"
    >
      <p>
        The name stops resolving on this service, and its private key is deleted here. This cannot be undone: to publish to this name again you need the key
        (import it again if you keep a copy).
      </p>
      <p className="muted">The content it points at stays pinned.</p>
    </ActionConfirmDialog>
  );
}
