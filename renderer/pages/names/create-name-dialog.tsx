import { useState } from 'react';
import type { NameBinding } from '../../api/names.js';
import { ActionFormDialog } from '../../app/action-form-dialog.js';
import { CID_FIELD_HINT, CidField } from '../../components/cid-field.js';
import { Checkbox } from '../../components/checkbox.js';
import { TextField } from '../../components/text-field.js';
import { useCidEntry } from '../../components/use-cid-entry.js';
import { useCreateName } from '../../data/names.js';
import { cidFieldMessage } from '../../lib/cid-text.js';
import { MAX_ALIAS } from './name-label.js';

/** What the page gives a dialog that makes a new name (Create name, Import key), passed on as it is. */
export interface NewNameDialogProps {
  open: boolean;
  onClose: () => void;
  /** The new name and what it points at; the dialog is empty again. */
  onDone: (name: NameBinding) => void;
}

/** Create name: a new key and its IPNS name, pointing at a CID (pinned too, by default), with an optional alias. */
export function CreateNameDialog(dialog: NewNameDialogProps) {
  const cid = useCidEntry('published');
  const [alias, setAlias] = useState('');
  const [pin, setPin] = useState(true);
  const create = useCreateName();

  const form = {
    read: () => {
      const value = cid.read();
      const wanted = alias.trim();
      return value === null ? null : { cid: value, alias: wanted === '' ? undefined : wanted, pin };
    },
    reset: () => {
      cid.reset();
      setAlias('');
      setPin(true);
    },
  };

  return (
    <ActionFormDialog
      {...dialog}
      title="Create name"
      description="A new IPNS name: a stable address that you point at new content whenever it changes."
      submitLabel="Create name"
      busyLabel="Creating…"
      action={create}
      form={form}
      describeError={cidFieldMessage}
    >
      <CidField label="CID to point at" {...cid.field} hint={CID_FIELD_HINT} />
      <TextField
        label="Alias (optional)"
        value={alias}
        onChange={(event) => setAlias(event.target.value)}
        maxLength={MAX_ALIAS}
        hint="A nickname to find it by (unique in this account)."
        autoComplete="off"
      />
      <Checkbox label="Pin this CID too" hint="Keeps the content from garbage collection." checked={pin} onChange={(event) => setPin(event.target.checked)} />
    </ActionFormDialog>
  );
}
