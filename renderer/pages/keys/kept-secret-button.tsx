import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../components/icons.js';
import { describeError } from '../../lib/messages.js';
import type { KeychainBridge } from './use-kept-secrets.js';

const FEEDBACK_MS = 2000;

export interface KeptSecretButtonProps {
  keychain: KeychainBridge;
  accessKey: string;
  name: string;
  /** The keychain answered that it no longer holds the secret. */
  onLost: () => void;
}

/**
 * Copies a key's secret from the OS keychain (desktop app): read on the click and written to the
 * clipboard, never kept in the page. Says what happened in a polite live region, like CopyButton.
 */
export function KeptSecretButton({ keychain, accessKey, name, onLost }: KeptSecretButtonProps) {
  const [state, setState] = useState<{ kind: 'idle' | 'copied' } | { kind: 'failed'; message: string }>({ kind: 'idle' });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const copy = async () => {
    let next: typeof state;
    try {
      const secret = await keychain.readSecret(accessKey);
      if (secret === null) {
        onLost();
        next = { kind: 'failed', message: `The OS keychain no longer holds the secret of “${name}”.` };
      } else {
        await navigator.clipboard.writeText(secret);
        next = { kind: 'copied' };
      }
    } catch (error) {
      next = { kind: 'failed', message: `Could not copy the secret of “${name}”: ${describeError(error)}` };
    }
    setState(next);
    if (timer.current) clearTimeout(timer.current);
    if (next.kind === 'copied') timer.current = setTimeout(() => setState({ kind: 'idle' }), FEEDBACK_MS);
  };

  const label = `Copy secret of ${name} from the keychain`;
  return (
    <>
      {/* A key, not the copy icon: the row's access key already has a copy button of its own. */}
      <button type="button" className="button button-ghost button-sm icon-button" aria-label={label} title={label} onClick={() => void copy()}>
        <Icon name={state.kind === 'copied' ? 'check' : 'keys'} />
      </button>
      <span className={state.kind === 'failed' ? 'kept-secret-failed' : 'visually-hidden'} role="status">
        {state.kind === 'copied' ? `Copied the secret of ${name}` : state.kind === 'failed' ? state.message : ''}
      </span>
    </>
  );
}
