import { FormDialog, type FormDialogProps } from '../components/form-dialog.js';
import type { ApiMutation } from '../data/api-mutation.js';

/** The fields of a form, as its dialog needs them. */
export interface ActionForm<V> {
  /** What to send, or null once the fields say what is wrong with them (nothing is sent then). */
  read: () => V | null;
  /** Empties the fields: after a success, and on Cancel. */
  reset: () => void;
}

export interface ActionFormDialogProps<V, R> extends Omit<FormDialogProps, 'busy' | 'error' | 'onRetry' | 'onSubmit' | 'onCancel'> {
  /** The action the form sends (its hook's onSuccess brings the cache up to date). */
  action: ApiMutation<V, R>;
  form: ActionForm<V>;
  /** The action succeeded; the form is empty again. */
  onDone: (result: R) => void;
  onClose: () => void;
  /** The service's refusal as this form says it (cidFieldMessage: of "this CID", not of a parameter). */
  describeError?: (error: string) => string | null;
  /** Offers Retry beside the refusal (a failed publish). */
  retry?: boolean;
}

/**
 * A form in a dialog that sends one action: the fields checked first (`form.read`), the buttons waiting
 * while it runs, the service's refusal above them (the dialog and what was typed stay), the form emptied
 * after a success and on Cancel.
 */
export function ActionFormDialog<V, R>({ action, form, onDone, onClose, describeError, retry = false, ...dialog }: ActionFormDialogProps<V, R>) {
  const clear = () => {
    form.reset();
    action.clearError();
  };
  const submit = async () => {
    const variables = form.read();
    if (variables === null) return;
    const result = await action.run(variables);
    if (!result.ok) return;
    clear();
    onDone(result.value);
  };
  const error = action.error === null || !describeError ? action.error : describeError(action.error);
  return (
    <FormDialog
      {...dialog}
      busy={action.pending}
      error={error}
      onRetry={retry ? () => void submit() : undefined}
      onSubmit={() => void submit()}
      onCancel={() => {
        clear();
        onClose();
      }}
    />
  );
}
