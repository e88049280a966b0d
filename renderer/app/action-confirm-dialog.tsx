import { ConfirmDialog, type ConfirmDialogProps } from '../components/confirm-dialog.js';
import type { ApiMutation } from '../data/api-mutation.js';

export interface ActionConfirmDialogProps<T extends V, V, R> extends Omit<ConfirmDialogProps, 'open' | 'busy' | 'error' | 'onConfirm' | 'onCancel'> {
  /** What the action is asked about; null: the dialog is closed. */
  target: T | null;
  /** The action that Confirm runs on the target (its hook's onSuccess brings the cache up to date). */
  action: ApiMutation<V, R>;
  /** After a success, before the dialog closes: what the page says or does about it (a toast). */
  onDone?: (result: R, target: T) => void | Promise<void>;
  onClose: () => void;
}

/**
 * A question before one action (Delete, Revoke, Move to a plan): Confirm runs it, a success closes the
 * dialog, a refusal stays in it beside the buttons; Cancel closes it and forgets the refusal.
 *
 *   <ActionConfirmDialog target={deleting} action={useDeleteName()} onDone={() => toasts.show('Deleted.')} onClose={() => setDeleting(null)} … />
 */
export function ActionConfirmDialog<T extends V, V, R>({ target, action, onDone, onClose, ...dialog }: ActionConfirmDialogProps<T, V, R>) {
  const close = () => {
    action.clearError();
    onClose();
  };
  const confirm = async () => {
    if (target === null) return;
    const result = await action.run(target);
    if (!result.ok) return;
    await onDone?.(result.value, target);
    close();
  };
  return <ConfirmDialog {...dialog} open={target !== null} busy={action.pending} error={action.error} onCancel={close} onConfirm={() => void confirm()} />;
}
