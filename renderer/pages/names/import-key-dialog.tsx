import { useState } from 'react';
import { CidField } from '../../components/cid-field.js';
import type { NameBinding } from '../../api/names.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useApi } from '../../app/session.js';
import { FormDialog } from '../../components/form-dialog.js';
import { TextField } from '../../components/text-field.js';
import { cidFieldMessage, readCidInput } from '../../lib/cid-text.js';
import { describeKeyFormat, MAX_KEY_FILE_BYTES, readKeyFile, type KeyFile, type KeyFormat } from './key-file.js';
import { MAX_ALIAS } from './name-label.js';

export interface ImportKeyDialogProps {
  open: boolean;
  onClose: () => void;
  onImported: (name: NameBinding) => void;
}

type ReadableKey = Extract<KeyFile, { format: KeyFormat }>;

interface ChosenKey {
  fileName: string;
  key: KeyFile;
}

/** A sequence number as typed: '' is the default (0). */
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
export function ImportKeyDialog({ open, onClose, onImported }: ImportKeyDialogProps) {
  const api = useApi();
  const [chosen, setChosen] = useState<ChosenKey | null>(null);
  const [cidText, setCidText] = useState('');
  const [alias, setAlias] = useState('');
  const [seqText, setSeqText] = useState('');
  const [errors, setErrors] = useState<{ file?: string; cid?: string; seq?: string }>({});
  const importKey = useAction((signal, request: { key: ReadableKey; value: string; alias: string; seq: number | undefined }) =>
    api.names.import(
      {
        value: request.value,
        secret_key: request.key.secretKey,
        format: request.key.format,
        ...(request.alias ? { alias: request.alias } : {}),
        ...(request.seq !== undefined ? { seq: request.seq } : {}),
      },
      signal,
    ),
  );

  const reset = () => {
    setChosen(null);
    setCidText('');
    setAlias('');
    setSeqText('');
    setErrors({});
    importKey.clearError();
  };

  const choose = async (file: File | undefined) => {
    setErrors((current) => ({ ...current, file: undefined }));
    if (!file) {
      setChosen(null);
      return;
    }
    if (file.size > MAX_KEY_FILE_BYTES) {
      setChosen({ fileName: file.name, key: { problem: 'This file is too large to be a private key.' } });
      return;
    }
    const key = readKeyFile(new Uint8Array(await file.arrayBuffer()));
    setChosen({ fileName: file.name, key });
  };

  const submit = async () => {
    const found: typeof errors = {};
    if (!chosen) found.file = 'Choose a key file.';
    else if ('problem' in chosen.key) found.file = chosen.key.problem;
    const cid = readCidInput(cidText, 'published');
    if ('problem' in cid) found.cid = cid.problem;
    const seq = parseSeq(seqText);
    if (seq === null) found.seq = 'A sequence number is a whole number, 0 or more.';
    setErrors(found);
    if (!chosen || 'problem' in chosen.key || 'problem' in cid || seq === null) return;
    const result = await importKey.run({ key: chosen.key, value: cid.cid, alias: alias.trim(), seq });
    if (!result.ok) return;
    reset();
    onImported(result.value);
  };

  const fileProblem = errors.file ?? (chosen && 'problem' in chosen.key ? chosen.key.problem : undefined);
  return (
    <FormDialog
      open={open}
      title="Import key"
      description="Bring a name you made elsewhere (with Kubo or libp2p): its private key becomes a name here."
      submitLabel="Import"
      busyLabel="Importing…"
      busy={importKey.pending}
      error={cidFieldMessage(importKey.error)}
      onSubmit={() => void submit()}
      onCancel={() => {
        reset();
        onClose();
      }}
    >
      <TextField
        type="file"
        label="Key file"
        className="file-field"
        onChange={(event) => void choose(event.target.files?.[0])}
        error={fileProblem}
        hint={
          chosen && !('problem' in chosen.key)
            ? `${chosen.fileName}: ${describeKeyFormat(chosen.key.format)}. Read in this window and sent only to the Pinfold service on this computer, which keeps it encrypted.`
            : 'A PEM (PKCS#8) file, or a key from `ipfs key export`; Ed25519 or RSA. It is sent only to the Pinfold service on this computer.'
        }
      />
      <CidField
        label="CID to point at"
        value={cidText}
        onValueChange={(text) => {
          setCidText(text);
          if (errors.cid) setErrors((current) => ({ ...current, cid: undefined }));
        }}
        error={errors.cid}
      />
      <TextField label="Alias (optional)" value={alias} onChange={(event) => setAlias(event.target.value)} maxLength={MAX_ALIAS} autoComplete="off" />
      <TextField
        label="Sequence number (optional)"
        inputMode="numeric"
        value={seqText}
        onChange={(event) => setSeqText(event.target.value)}
        error={errors.seq}
        hint="Leave empty for a new name. For a name published elsewhere, give a number above its last one, so this record wins."
        autoComplete="off"
      />
    </FormDialog>
  );
}
