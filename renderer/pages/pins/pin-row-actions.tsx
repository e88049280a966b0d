import type { ReactNode } from 'react';
import type { PinRecord } from '../../../shared/api-types.js';
import { IconButton } from '../../components/button.js';
import { pinLabel } from './pin-label.js';

export interface PinRowActionsProps {
  pin: PinRecord;
  /** The Open control (OpenContentControl), shown for content the service holds. */
  open: ReactNode;
  repinning: boolean;
  /** Pin again (an unpinning pin) or Retry (a failed one): pin/add takes it back. */
  onTakeBack: () => void;
  onUnpin: () => void;
}

/** Open (held content only), Pin again / Retry by status, Unpin: each named after its pin. */
export function PinRowActions({ pin, open, repinning, onTakeBack, onUnpin }: PinRowActionsProps) {
  const label = pinLabel(pin);
  const held = pin.status === 'pinned' || pin.status === 'unpinning';
  // Three fixed slots (open, take back, unpin), so the buttons line up from row to row.
  return (
    <span className="pin-actions">
      {held ? open : <span />}
      {pin.status === 'unpinning' ? (
        <IconButton icon="pins" variant="secondary" label={`Pin ${label} again`} busy={repinning} onClick={onTakeBack} />
      ) : pin.status === 'failure' ? (
        <IconButton icon="refresh" variant="secondary" label={`Retry pinning ${label}`} busy={repinning} onClick={onTakeBack} />
      ) : (
        <span />
      )}
      {pin.status !== 'unpinning' ? <IconButton icon="trash" variant="danger" label={`Unpin ${label}`} onClick={onUnpin} /> : <span />}
    </span>
  );
}
