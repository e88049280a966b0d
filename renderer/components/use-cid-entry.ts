import { useCallback, useMemo, useState } from 'react';
import { readCidInput } from '../lib/cid-text.js';

export interface CidEntry {
  /** What <CidField> takes besides its label and hint: the text, its change (which clears a problem shown), the problem. */
  field: { value: string; onValueChange: (text: string) => void; error: string | null };
  /** The CID entered, or null once the field says why there is none (nothing is sent then). */
  read: () => string | null;
  /** Empty again, with no problem shown (a dialog closed or done). */
  reset: () => void;
}

/**
 * The state of a CID field in a form: what was typed, checked as the service will read it when the form
 * is sent, so a typo costs no request and its problem sits under the field until the text changes.
 * `use` says what the CID is for ("pinned", "published"), in the problem of a path inside a CID.
 *
 *   const cid = useCidEntry('published');
 *   <CidField label="CID to point at" {...cid.field} />
 *   const value = cid.read(); if (value === null) return;
 */
export function useCidEntry(use?: string): CidEntry {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onValueChange = useCallback((text: string) => {
    setValue(text);
    setError(null);
  }, []);
  const read = useCallback(() => {
    const input = readCidInput(value, use);
    setError('problem' in input ? input.problem : null);
    return 'cid' in input ? input.cid : null;
  }, [value, use]);
  const reset = useCallback(() => {
    setValue('');
    setError(null);
  }, []);
  return useMemo(() => ({ field: { value, onValueChange, error }, read, reset }), [value, onValueChange, error, read, reset]);
}
