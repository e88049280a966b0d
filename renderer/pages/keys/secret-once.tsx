import { useEffect, useId, useRef } from 'react';
import type { NewAccessKey } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { Icon } from '../../components/icons.js';
import { kuboServiceAddCommand } from '../../lib/remote-pinning.js';
import './keys.css';

/** What became of "Keep in the OS keychain" (desktop app): not asked, kept, or refused with why. */
export type KeychainOutcome = { kind: 'not-asked' } | { kind: 'kept' } | { kind: 'failed'; reason: string };

export interface SecretOnceProps {
  /** The key's name. */
  name: string;
  created: NewAccessKey;
  keychain: KeychainOutcome;
  /** Whose key it is, when not the signed-in account's ("for Ada Lovelace"). */
  owner?: string;
  /** The heading's level: 3 inside a section that has its own h2. */
  level?: 2 | 3;
  onDone: () => void;
}

/**
 * A new key's secret, the one time the service shows it: in full, with Copy, a plain warning that it
 * will not be shown again, and what the keychain did with it; beside it the key's token for remote
 * pinning (the Pinning Service API at /psa: Kubo, IPFS Desktop), with the Kubo command that uses it. Focus moves here so a screen reader
 * announces it; the panel stays until Done (never a dialog a stray Escape closes).
 */
export function SecretOnce({ name, created, keychain, owner, level = 2, onDone }: SecretOnceProps) {
  const titleId = useId();
  const title = useRef<HTMLHeadingElement>(null);
  const Heading = level === 2 ? 'h2' : 'h3';
  useEffect(() => title.current?.focus(), []);
  return (
    <section className="card secret-once" aria-labelledby={titleId}>
      <Heading id={titleId} ref={title} tabIndex={-1} className="secret-once-title">
        <Icon name="keys" size={18} /> Key “{name}” created{owner ? ` for ${owner}` : ''}
      </Heading>
      <p className="secret-warning">
        <Icon name="alert" className="secret-warning-icon" />
        <span>
          <strong>Copy the secret now: it is shown only this once.</strong>{' '}
          {keychain.kind === 'kept'
            ? 'A copy is in the OS keychain, so you can copy it again later from the list.'
            : 'Pinfold keeps it encrypted and never shows it again. If it is lost, delete the key and create a new one.'}
        </span>
      </p>
      {keychain.kind === 'failed' ? (
        <p className="secret-keychain-failed" role="alert">
          The OS keychain did not keep the secret ({keychain.reason}). Copy it now: this is the only time it is shown.
        </p>
      ) : null}
      <dl className="secret-values">
        <div>
          <dt>Access key</dt>
          <dd>
            <code data-testid="new-access-key">{created.access_key}</code>
            <CopyButton value={created.access_key} what="access key" size="sm" />
          </dd>
        </div>
        <div>
          <dt>Access secret</dt>
          <dd>
            <code data-testid="new-access-secret">{created.access_secret}</code>
            <CopyButton value={created.access_secret} what="access secret" size="sm" />
          </dd>
        </div>
        <div>
          <dt>Pinning service token</dt>
          <dd>
            <code data-testid="new-psa-token">{created.psa_token}</code>
            <CopyButton value={created.psa_token} what="pinning service token" size="sm" />
          </dd>
        </div>
      </dl>
      <p className="muted">
        Send the key and the secret with every request, as the <code>X-Access-Key</code> and <code>X-Access-Secret</code> headers.
      </p>
      <div className="secret-psa-use">
        <p className="muted">
          Use the token to pin here from Kubo or IPFS Desktop, as a remote pinning service with this key’s permissions. In a terminal beside Kubo, this adds
          Pinfold as the remote pinning service <code>pinfold</code> (then <code>ipfs pin remote add --service=pinfold &lt;cid&gt;</code>):
        </p>
        <div className="secret-command">
          <code data-testid="kubo-service-add">{kuboServiceAddCommand(window.location.origin, created.psa_token)}</code>
          <CopyButton value={kuboServiceAddCommand(window.location.origin, created.psa_token)} what="Kubo command" size="sm" />
        </div>
      </div>
      <div className="row">
        <Button variant="primary" onClick={onDone}>
          Done
        </Button>
      </div>
    </section>
  );
}
