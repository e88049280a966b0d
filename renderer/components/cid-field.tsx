import type { ReactNode } from 'react';
import { TextField } from './text-field.js';

/** What a CID field takes (lib/cid-text.ts reads each form). */
export const CID_FIELD_HINT = 'bafy…, Qm…, or an ipfs:// or gateway address of it.';

export interface CidFieldProps {
  label: string;
  value: string;
  onValueChange: (text: string) => void;
  error: string | null | undefined;
  hint?: ReactNode;
}

/** A field for a CID as users paste it: monospace, and no spell checking or autofill on a hash. */
export function CidField({ label, value, onValueChange, error, hint }: CidFieldProps) {
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      error={error}
      hint={hint}
      spellCheck={false}
      autoComplete="off"
      className="mono-field"
    />
  );
}
