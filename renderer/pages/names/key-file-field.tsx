import { useCallback, useState } from 'react';
import { TextField } from '../../components/text-field.js';
import { describeKeyFormat, MAX_KEY_FILE_BYTES, readKeyFile, type KeyFile, type KeyFormat } from './key-file.js';

export type ReadableKey = Extract<KeyFile, { format: KeyFormat }>;

interface ChosenKey {
  fileName: string;
  key: KeyFile;
}

export interface KeyFileChoice {
  chosen: ChosenKey | null;
  /** Why there is no key to send, for the field; undefined when there is none to say. */
  problem: string | undefined;
  /** Reads the file chosen (or forgets it, when the choice was cleared). */
  choose: (file: File | undefined) => Promise<void>;
  /** The key to send, or null once the field says why there is none. */
  read: () => ReadableKey | null;
  reset: () => void;
}

/** The key file of Import key: read in this window the moment it is chosen, so a file that is not a key is said at once. */
export function useKeyFileChoice(): KeyFileChoice {
  const [chosen, setChosen] = useState<ChosenKey | null>(null);
  const [missing, setMissing] = useState(false);

  const choose = useCallback(async (file: File | undefined) => {
    setMissing(false);
    if (!file) setChosen(null);
    else if (file.size > MAX_KEY_FILE_BYTES) setChosen({ fileName: file.name, key: { problem: 'This file is too large to be a private key.' } });
    else setChosen({ fileName: file.name, key: readKeyFile(new Uint8Array(await file.arrayBuffer())) });
  }, []);
  const read = () => {
    setMissing(chosen === null);
    return chosen && !('problem' in chosen.key) ? chosen.key : null;
  };
  const reset = useCallback(() => {
    setChosen(null);
    setMissing(false);
  }, []);

  const problem = missing ? 'Choose a key file.' : chosen && 'problem' in chosen.key ? chosen.key.problem : undefined;
  return { chosen, problem, choose, read, reset };
}

/** The file field of Import key: what was read of the file, or what it takes, and that the key goes only to this computer's service. */
export function KeyFileField({ choice }: { choice: KeyFileChoice }) {
  const { chosen } = choice;
  return (
    <TextField
      type="file"
      label="Key file"
      className="file-field"
      onChange={(event) => void choice.choose(event.target.files?.[0])}
      error={choice.problem}
      hint={
        chosen && !('problem' in chosen.key)
          ? `${chosen.fileName}: ${describeKeyFormat(chosen.key.format)}. Read in this window and sent only to the Pinfold service on this computer, which keeps it encrypted.`
          : 'A PEM (PKCS#8) file, or a key from `ipfs key export`; Ed25519 or RSA. It is sent only to the Pinfold service on this computer.'
      }
    />
  );
}
