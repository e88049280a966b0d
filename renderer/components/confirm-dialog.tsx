import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button.js';
import { InlineError } from './inline-error.js';
import './dialog.css';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The consequences, said plainly ("The pin is removed at the next garbage collection."). */
  children: ReactNode;
  confirmLabel: string;
  busyLabel?: string;
  tone?: 'danger' | 'primary';
  /** While the action runs: the buttons wait and Escape does not close. */
  busy?: boolean;
  /** Why the action failed, shown in the dialog beside its buttons. */
  error?: string | null;
  /** The action cannot be taken as things stand (the body says why): the confirm button is disabled, Cancel stays. */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal question on the native <dialog>: showModal() makes the rest of the page inert (focus stays
 * inside), Escape cancels, focus starts on Cancel (the harmless choice) and returns to the control that
 * opened it when it closes.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busyLabel,
  tone = 'danger',
  busy = false,
  error,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      cancelButton.current?.focus();
    } else if (!open && element.open) {
      element.close();
      const target = returnFocus.current;
      returnFocus.current = null;
      if (target?.isConnected) target.focus();
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        // Escape: the dialog closes only through `open`, so React state and the element agree.
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {title}
      </h2>
      <div id={bodyId} className="dialog-body">
        {children}
      </div>
      <InlineError message={error ?? null} />
      <div className="dialog-actions">
        <Button ref={cancelButton} variant="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant={tone} busy={busy} busyLabel={busyLabel} disabled={confirmDisabled} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
