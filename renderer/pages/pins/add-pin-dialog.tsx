import { useState } from 'react';
import { CID_FIELD_HINT, CidField } from '../../components/cid-field.js';
import type { PinRecord } from '../../../shared/api-types.js';
import { FormDialog } from '../../components/form-dialog.js';
import { TextField } from '../../components/text-field.js';
import { useCidEntry } from '../../components/use-cid-entry.js';
import { useAddPin } from '../../data/pins.js';
import { cidFieldMessage } from '../../lib/cid-text.js';

/** The service keeps pin names of up to 255 characters. */
export const MAX_PIN_NAME = 255;

export interface AddPinDialogProps {
  open: boolean;
  onClose: () => void;
  /** The pin as the service has it just after pin/add (pinned, or pinning while blocks are missing). */
  onAdded: (pin: PinRecord) => void;
}

/**
 * Add pin: a CID (or an address of one: ipfs://…, /ipfs/…, a gateway URL) and an optional name. The CID is
 * checked here first, so a typo costs no request; the service's refusal (a hash it cannot verify, the
 * plan's pin limit) is shown in the dialog, which stays open.
 */
export function AddPinDialog({ open, onClose, onAdded }: AddPinDialogProps) {
  const cid = useCidEntry();
  const [name, setName] = useState('');
  const add = useAddPin();

  const close = () => {
    cid.reset();
    setName('');
    add.clearError();
    onClose();
  };

  const submit = async () => {
    const value = cid.read();
    if (value === null) return;
    const pinName = name.trim();
    const result = await add.run({ cid: value, name: pinName === '' ? undefined : pinName });
    if (!result.ok) return;
    cid.reset();
    setName('');
    onAdded(result.value);
  };

  return (
    <FormDialog
      open={open}
      title="Add pin"
      description="Keep content by its CID. Blocks this service does not hold yet are waited for: the pin turns Pinned when they arrive."
      submitLabel="Add pin"
      busyLabel="Adding…"
      busy={add.pending}
      error={cidFieldMessage(add.error)}
      onSubmit={() => void submit()}
      onCancel={close}
    >
      <CidField label="CID" {...cid.field} hint={CID_FIELD_HINT} />
      <TextField
        label="Name (optional)"
        value={name}
        onChange={(event) => setName(event.target.value)}
        maxLength={MAX_PIN_NAME}
        hint="A name to find it by. You can change it later."
        autoComplete="off"
      />
    </FormDialog>
  );
}
