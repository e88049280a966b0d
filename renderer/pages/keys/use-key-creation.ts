import { useState } from 'react';
import type { NewAccessKey } from '../../../shared/api-types.js';
import type { ApiMutation } from '../../data/api-mutation.js';
import type { KeyRequest } from '../../data/keys.js';
import type { NewKey } from './key-form.js';
import type { KeychainOutcome } from './secret-once.js';

/** Where creating a key stands: no form, the form, or the new key's secret shown once. */
export type Creation = { step: 'closed' } | { step: 'form' } | { step: 'created'; name: string; key: NewAccessKey; keychain: KeychainOutcome };

export interface KeyCreation {
  creation: Creation;
  /** Opens the form (forgetting an earlier refusal). */
  start: () => void;
  /** Cancel, or Done under the secret. */
  close: () => void;
  submit: (key: NewKey) => void;
  pending: boolean;
  /** Why the service refused the key, for the form. */
  error: string | null;
}

/**
 * Creating an access key (the account's own, or a partner's user's): the form, then the secret shown
 * once. `keep` is what else becomes of the secret (the desktop app's keychain) before it is shown.
 */
export function useKeyCreation(
  action: ApiMutation<KeyRequest, NewAccessKey>,
  keep?: (key: NewKey, created: NewAccessKey) => Promise<KeychainOutcome>,
): KeyCreation {
  const [creation, setCreation] = useState<Creation>({ step: 'closed' });
  const submit = async (key: NewKey) => {
    const result = await action.run(key);
    if (!result.ok) return;
    const keychain = keep ? await keep(key, result.value) : ({ kind: 'not-asked' } as const);
    setCreation({ step: 'created', name: key.name, key: result.value, keychain });
  };
  return {
    creation,
    start: () => {
      action.clearError();
      setCreation({ step: 'form' });
    },
    close: () => setCreation({ step: 'closed' }),
    submit: (key) => void submit(key),
    pending: action.pending,
    error: action.error,
  };
}
