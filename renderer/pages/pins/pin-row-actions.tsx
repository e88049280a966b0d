import type { PinRecord } from '../../../shared/api-types.js';
import { IconButton } from '../../components/button.js';
import { pinLabel } from './pin-label.js';

export interface PinRowActionsProps {
  pin: PinRecord;
  opening: boolean;
  repinning: boolean;
  onOpen: () => void;
  /** Pin again (an unpinning pin) or Retry (a failed one): pin/add takes it back. */
  onTakeBack: () => void;
  onUnpin: () => void;
}

/** Open (held content only), Pin again / Retry by status, Unpin: each named after its pin. */
export function PinRowActions({ pin, opening, repinning, onOpen, onTakeBack, onUnpin }: PinRowActionsProps) {
  const label = pinLabel(pin);
  const held = pin.status === 'pinned' || pin.status === 'unpinning';
  // Three fixed slots (open, take back, unpin), so the buttons line up from row to row.
  return (
    <span className="pin-actions">
      {held ? <IconButton icon="external" label={`Open ${label}`} busy={opening} onClick={onOpen} /> : <span />}
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
