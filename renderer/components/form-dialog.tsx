import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { Button } from './button.js';
import { InlineError } from './inline-error.js';
import './dialog.css';

export interface FormDialogProps {
  open: boolean;
  title: string;
  /** One line under the title: what the form does. */
  description?: ReactNode;
  /** The fields. The first one that is not disabled gets focus when the dialog opens. */
  children: ReactNode;
  submitLabel: string;
  busyLabel?: string;
  /** While the action runs: the buttons wait and Escape does not close. */
  busy?: boolean;
  /** Why the action failed (the service's answer), shown above the buttons. */
  error?: string | null;
  /** Offers "Retry" beside the error (a failed publish). */
  onRetry?: (() => void) | undefined;
  /** Called on submit (Enter in a field, or the submit button); the page checks the fields first. */
  onSubmit: () => void;
  onCancel: () => void;
}

/**
 * A modal form on the native <dialog> (like ConfirmDialog): showModal() keeps focus inside, Escape
 * cancels, Enter submits, focus starts in the first field and goes back to the control that opened it.
 * Field errors are the page's (TextField's `error`); the service's refusal is `error`.
 */
export function FormDialog({ open, title, description, children, submitLabel, busyLabel, busy = false, error, onRetry, onSubmit, onCancel }: FormDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      element.querySelector<HTMLElement>('input:not([disabled]), textarea:not([disabled]), select:not([disabled])')?.focus();
    } else if (!open && element.open) {
      element.close();
      const target = returnFocus.current;
      returnFocus.current = null;
      if (target?.isConnected) target.focus();
    }
  }, [open]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <form onSubmit={submit} noValidate>
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {description ? (
          <p id={descriptionId} className="dialog-description">
            {description}
          </p>
        ) : null}
        <div className="dialog-body">{open ? children : null}</div>
        <InlineError message={error ?? null} onRetry={busy ? undefined : onRetry} />
        <div className="dialog-actions">
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" busy={busy} busyLabel={busyLabel}>
            {submitLabel}
          </Button>
        </div>
      </form>
    </dialog>
  );
}
