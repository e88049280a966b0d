import { useState } from 'react';
import type { PinRecord } from '../../../shared/api-types.js';
import type { OpenContent } from '../../app/hooks/use-open-content.js';
import { useToasts } from '../../components/toasts.js';
import { useRenamePin, useRepin } from '../../data/pins.js';
import type { PinColumnsInit } from './pin-columns.js';
import { pinLabel } from './pin-label.js';

export interface PinRowActions {
  /** What the columns need: the name being edited, its save, and each row's failure. */
  columns: PinColumnsInit;
  /** Pin again (unpinning) or Retry (failure) runs for this pin. */
  repinning: (pin: PinRecord) => boolean;
  takeBack: (pin: PinRecord) => void;
}

/**
 * What a row of the pin table does in place: rename (its error under the name being edited) and take a
 * pin back with Pin again / Retry (its error, or Open's, under the row's name). The request cache shows
 * the outcome (renderer/data/pins.ts); this says it.
 */
export function usePinRowActions(opener: OpenContent): PinRowActions {
  const toasts = useToasts();
  const [editing, setEditing] = useState<string | null>(null);
  const [repinTarget, setRepinTarget] = useState<string | null>(null);
  const rename = useRenamePin();
  const repin = useRepin();

  const saveName = async (pin: PinRecord, name: string) => {
    if (name === pin.name) {
      setEditing(null);
      return;
    }
    const result = await rename.run({ cid: pin.cid, name });
    if (result.ok) setEditing(null);
  };

  const takeBack = async (pin: PinRecord) => {
    setRepinTarget(pin.cid);
    const result = await repin.run(pin);
    if (!result.ok) return;
    toasts.show(pin.status === 'failure' ? `Pinning ${pinLabel(pin)} again.` : `${pinLabel(pin)} is pinned again.`);
  };

  return {
    columns: {
      editing,
      renameBusy: rename.pending,
      renameError: rename.error,
      onEdit: (pin) => {
        rename.clearError();
        setEditing(pin.cid);
      },
      onCancelEdit: () => setEditing(null),
      onSaveName: (pin, name) => void saveName(pin, name),
      failureFor: (pin) => {
        if (opener.failure?.key === pin.cid) return opener.failure.message;
        return repinTarget === pin.cid ? repin.error : null;
      },
    },
    repinning: (pin) => repin.pending && repinTarget === pin.cid,
    takeBack: (pin) => void takeBack(pin),
  };
}
