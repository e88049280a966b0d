import type { PinRecord } from '../../../shared/api-types.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { useToasts } from '../../components/toasts.js';
import { useUnpin } from '../../data/pins.js';
import { pinLabel } from './pin-label.js';

/** Unpin, confirmed: the pin turns “Unpinning” (the request cache shows it) and the dialog closes; a refusal stays in it. */
export function UnpinDialog({ pin, onClose }: { pin: PinRecord | null; onClose: () => void }) {
  const toasts = useToasts();
  const unpin = useUnpin();
  const close = () => {
    unpin.clearError();
    onClose();
  };
  const confirm = async () => {
    if (!pin) return;
    const result = await unpin.run(pin.cid);
    if (!result.ok) return;
    toasts.show(`Unpinned ${pinLabel(pin)}. Its data goes at the next garbage collection; until then the All filter shows it.`);
    onClose();
  };
  return (
    <ConfirmDialog
      open={pin !== null}
      title={`Unpin ${pin ? pinLabel(pin) : ''}?`}
      confirmLabel="Unpin"
      busyLabel="Unpinning…"
      busy={unpin.pending}
      error={unpin.error}
      onCancel={close}
      onConfirm={() => void confirm()}
    >
      <p>The pin turns “Unpinning” and leaves the Active list. Its data is deleted at the next garbage collection, unless another pin holds it.</p>
      <p className="muted">Until then, the All filter shows it, and Pin again takes it back.</p>
    </ConfirmDialog>
  );
}
