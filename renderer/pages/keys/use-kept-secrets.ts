import { useCallback, useEffect, useState } from 'react';
import type { PinfoldBridge } from '../../../shared/preload-bridge.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { describeError } from '../../lib/messages.js';
import type { KeychainOutcome } from './secret-once.js';

/** The desktop bridge's keychain members, when the desktop app offers all three. */
export type KeychainBridge = Required<Pick<PinfoldBridge, 'keepSecret' | 'readSecret' | 'forgetSecret'>>;

export function keychainBridge(): KeychainBridge | null {
  const bridge = desktopBridge();
  if (!bridge?.keepSecret || !bridge.readSecret || !bridge.forgetSecret) return null;
  return { keepSecret: bridge.keepSecret.bind(bridge), readSecret: bridge.readSecret.bind(bridge), forgetSecret: bridge.forgetSecret.bind(bridge) };
}

export interface KeptSecrets {
  /** The desktop app's keychain, or null in a browser (nothing is offered there). */
  keychain: KeychainBridge | null;
  /** Access keys whose secret the keychain holds. */
  kept: ReadonlySet<string>;
  /** Keeps a new key's secret; says what happened, for the panel that shows the secret. */
  keep: (accessKey: string, secret: string) => Promise<KeychainOutcome>;
  /** Drops a deleted key's secret from the keychain (and from `kept`). */
  forget: (accessKey: string) => Promise<void>;
  /** The keychain no longer holds it (read back as null). */
  lost: (accessKey: string) => void;
}

/**
 * Which of the listed keys have their secret in the OS keychain (desktop app). The bridge has no "has"
 * call, so each key's secret is read once when the list changes and only the yes/no is kept: the
 * secret itself is dropped at once and read again only when the user asks to copy it.
 */
export function useKeptSecrets(accessKeys: readonly string[] | undefined): KeptSecrets {
  const [keychain] = useState(keychainBridge);
  const [kept, setKept] = useState<ReadonlySet<string>>(() => new Set());
  const listed = accessKeys?.join('\n');

  useEffect(() => {
    if (!keychain || listed === undefined) return;
    let current = true;
    const keys = listed === '' ? [] : listed.split('\n');
    void Promise.all(
      keys.map((accessKey) =>
        keychain.readSecret(accessKey).then(
          (secret) => (secret !== null ? accessKey : null),
          () => null,
        ),
      ),
    ).then((found) => {
      if (current) setKept(new Set(found.filter((key): key is string => key !== null)));
    });
    return () => {
      current = false;
    };
  }, [keychain, listed]);

  const mark = useCallback((accessKey: string, on: boolean) => {
    setKept((current) => {
      const next = new Set(current);
      if (on) next.add(accessKey);
      else next.delete(accessKey);
      return next;
    });
  }, []);

  const keep = useCallback(
    async (accessKey: string, secret: string): Promise<KeychainOutcome> => {
      if (!keychain) return { kind: 'not-asked' };
      try {
        if (!(await keychain.keepSecret(accessKey, secret))) return { kind: 'failed', reason: 'it refused to store it' };
        mark(accessKey, true);
        return { kind: 'kept' };
      } catch (error) {
        return { kind: 'failed', reason: describeError(error) };
      }
    },
    [keychain, mark],
  );

  const forget = useCallback(
    async (accessKey: string) => {
      mark(accessKey, false);
      // The key is gone on the service already; a keychain that fails here only keeps a secret that opens nothing.
      await keychain?.forgetSecret(accessKey).catch(() => undefined);
    },
    [keychain, mark],
  );

  const lost = useCallback((accessKey: string) => mark(accessKey, false), [mark]);
  return { keychain, kept, keep, forget, lost };
}
