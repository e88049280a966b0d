import type { ReactNode } from 'react';
import type { PinRecord } from '../../../shared/api-types.js';
import { Button, IconButton } from '../../components/button.js';
import { RowMenu } from '../../components/row-menu.js';
import { pinLabel } from './pin-label.js';

export interface PinRowActionsProps {
  pin: PinRecord;
  /** The Open control (OpenContentControl) as an icon, shown for content the service holds. */
  open: ReactNode;
  /** The same with its text, for the row menu of a narrow window. */
  openWithText: ReactNode;
  repinning: boolean;
  /** Pin again (an unpinning pin) or Retry (a failed one): pin/add takes it back. */
  onTakeBack: () => void;
  onUnpin: () => void;
}

/**
 * Open (held content only), Pin again / Retry by status, Unpin: each named after its pin. Side by side in
 * a wide window; in a narrow one (CSS) behind one "Actions for …" button, so none falls off the row.
 */
export function PinRowActions({ pin, open, openWithText, repinning, onTakeBack, onUnpin }: PinRowActionsProps) {
  const label = pinLabel(pin);
  const held = pin.status === 'pinned' || pin.status === 'unpinning';
  const takeBack =
    pin.status === 'unpinning'
      ? { icon: 'pins' as const, text: 'Pin again', name: `Pin ${label} again` }
      : pin.status === 'failure'
        ? { icon: 'refresh' as const, text: 'Retry', name: `Retry pinning ${label}` }
        : null;
  const canUnpin = pin.status !== 'unpinning';
  return (
    <>
      {/* Three fixed slots (open, take back, unpin), so the buttons line up from row to row. */}
      <span className="pin-actions">
        {held ? open : <span />}
        {takeBack ? <IconButton icon={takeBack.icon} variant="secondary" label={takeBack.name} busy={repinning} onClick={onTakeBack} /> : <span />}
        {canUnpin ? <IconButton icon="trash" variant="danger" label={`Unpin ${label}`} onClick={onUnpin} /> : <span />}
      </span>
      <span className="pin-actions-narrow">
        <RowMenu label={`Actions for ${label}`}>
          {held ? openWithText : null}
          {takeBack ? (
            <Button icon={takeBack.icon} variant="ghost" aria-label={takeBack.name} busy={repinning} onClick={onTakeBack}>
              {takeBack.text}
            </Button>
          ) : null}
          {canUnpin ? (
            <Button icon="trash" variant="ghost" className="pin-menu-unpin" aria-label={`Unpin ${label}`} onClick={onUnpin}>
              Unpin
            </Button>
          ) : null}
        </RowMenu>
      </span>
    </>
  );
}
