import { useState } from 'react';
import { CID_FIELD_HINT, CidField } from '../../components/cid-field.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useApi } from '../../app/session.js';
import { Checkbox } from '../../components/checkbox.js';
import { FormDialog } from '../../components/form-dialog.js';
import { TextField } from '../../components/text-field.js';
import type { NameBinding } from '../../api/names.js';
import { cidFieldMessage, readCidInput } from '../../lib/cid-text.js';
import { MAX_ALIAS } from './name-label.js';

export interface CreateNameDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (name: NameBinding) => void;
}

/** Create name: a new key and its IPNS name, pointing at a CID (pinned too, by default), with an optional alias. */
export function CreateNameDialog({ open, onClose, onCreated }: CreateNameDialogProps) {
  const api = useApi();
  const [cidText, setCidText] = useState('');
  const [alias, setAlias] = useState('');
  const [pin, setPin] = useState(true);
  const [cidError, setCidError] = useState<string | null>(null);
  const create = useAction((signal, cid: string, wanted: string, pinned: boolean) =>
    api.names.create({ cid, alias: wanted === '' ? undefined : wanted, pin: pinned }, signal),
  );

  const reset = () => {
    setCidText('');
    setAlias('');
    setPin(true);
    setCidError(null);
    create.clearError();
  };

  const submit = async () => {
    const input = readCidInput(cidText, 'published');
    if ('problem' in input) {
      setCidError(input.problem);
      return;
    }
    setCidError(null);
    const result = await create.run(input.cid, alias.trim(), pin);
    if (!result.ok) return;
    reset();
    onCreated(result.value);
  };

  return (
    <FormDialog
      open={open}
      title="Create name"
      description="A new IPNS name: a stable address that you point at new content whenever it changes."
      submitLabel="Create name"
      busyLabel="Creating…"
      busy={create.pending}
      error={cidFieldMessage(create.error)}
      onSubmit={() => void submit()}
      onCancel={() => {
        reset();
        onClose();
      }}
    >
      <CidField
        label="CID to point at"
        value={cidText}
        onValueChange={(text) => {
          setCidText(text);
          if (cidError) setCidError(null);
        }}
        error={cidError}
        hint={CID_FIELD_HINT}
      />
      <TextField
        label="Alias (optional)"
        value={alias}
        onChange={(event) => setAlias(event.target.value)}
        maxLength={MAX_ALIAS}
        hint="A nickname to find it by (unique in this account)."
        autoComplete="off"
      />
      <Checkbox label="Pin this CID too" hint="Keeps the content from garbage collection." checked={pin} onChange={(event) => setPin(event.target.checked)} />
    </FormDialog>
  );
}
