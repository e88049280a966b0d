import { useState } from 'react';
import type { NameImport } from '../../api/names.js';
import { ActionFormDialog, type ActionForm } from '../../app/action-form-dialog.js';
import { CidField } from '../../components/cid-field.js';
import { TextField } from '../../components/text-field.js';
import { useCidEntry } from '../../components/use-cid-entry.js';
import { useImportKey } from '../../data/names.js';
import { cidFieldMessage } from '../../lib/cid-text.js';
import type { NewNameDialogProps } from './create-name-dialog.js';
import { KeyFileField, useKeyFileChoice } from './key-file-field.js';
import { MAX_ALIAS } from './name-label.js';

/** A sequence number as typed: '' is the default (0), null is not a number. */
function parseSeq(text: string): number | undefined | null {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^\d{1,15}$/.test(trimmed)) return null;
  return Number(trimmed);
}

/**
 * Import key: a private key file (PEM PKCS#8 or a libp2p protobuf, Ed25519 or RSA) becomes a name here,
 * pointing at a CID. The file is read in this window and its key sent only to the local service (which
 * keeps it encrypted); the name is the key's own, and the service answers it.
 */
export function ImportKeyDialog(dialog: NewNameDialogProps) {
  const keyFile = useKeyFileChoice();
  const cid = useCidEntry('published');
  const [alias, setAlias] = useState('');
  const [seqText, setSeqText] = useState('');
  const [seqError, setSeqError] = useState<string | undefined>();
  const importKey = useImportKey();

  const form: ActionForm<NameImport> = {
    read: () => {
      // Every field says what is wrong with it at once, not one problem per try.
      const key = keyFile.read();
      const value = cid.read();
      const seq = parseSeq(seqText);
      setSeqError(seq === null ? 'A sequence number is a whole number, 0 or more.' : undefined);
      if (key === null || value === null || seq === null) return null;
      const wanted = alias.trim();
      return { value, secret_key: key.secretKey, format: key.format, ...(wanted ? { alias: wanted } : {}), ...(seq !== undefined ? { seq } : {}) };
    },
    reset: () => {
      keyFile.reset();
      cid.reset();
      setAlias('');
      setSeqText('');
      setSeqError(undefined);
    },
  };

  return (
    <ActionFormDialog
      {...dialog}
      title="Import key"
      description="Bring a name you made elsewhere (with Kubo or libp2p): its private key becomes a name here."
      submitLabel="Import"
      busyLabel="Importing…"
      action={importKey}
      form={form}
      describeError={cidFieldMessage}
    >
      <KeyFileField choice={keyFile} />
      <CidField label="CID to point at" {...cid.field} />
      <TextField label="Alias (optional)" value={alias} onChange={(event) => setAlias(event.target.value)} maxLength={MAX_ALIAS} autoComplete="off" />
      <TextField
        label="Sequence number (optional)"
        inputMode="numeric"
        value={seqText}
        onChange={(event) => setSeqText(event.target.value)}
        error={seqError}
        hint="Leave empty for a new name. For a name published elsewhere, give a number above its last one, so this record wins."
        autoComplete="off"
      />
    </ActionFormDialog>
  );
}
