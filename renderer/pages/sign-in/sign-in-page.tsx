import { useId, useRef, useState, type FormEvent } from 'react';
import type { AccountUsage } from '../../../shared/api-types.js';
import type { ApiClient, Credentials } from '../../api/client.js';
import { checkCredentials } from '../../api/credentials.js';
import { ErrorMessage } from '../../components/error-message.js';
import { describeError } from '../../lib/messages.js';

interface SignInPageProps {
  client: ApiClient;
  /** Why the user is here again (session ended, desktop sign-in failed), shown above the form. */
  notice: string | null;
  onSignedIn: (credentials: Credentials, usage: AccountUsage) => void;
}

export function SignInPage({ client, notice, onSignedIn }: SignInPageProps) {
  const keyId = useId();
  const secretId = useId();
  const errorId = useId();
  const keyInput = useRef<HTMLInputElement>(null);
  const secretInput = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [invalidField, setInvalidField] = useState<'accessKey' | 'accessSecret' | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const check = checkCredentials(String(form.get('accessKey') ?? ''), String(form.get('accessSecret') ?? ''));
    if (!check.ok) {
      setError(check.message);
      setInvalidField(check.field);
      (check.field === 'accessKey' ? keyInput : secretInput).current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    setInvalidField(null);
    try {
      // Signing in is proving the key works: the stats call needs an admin key, as the Overview does.
      const usage = await client.stats(check.credentials);
      onSignedIn(check.credentials, usage);
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
      secretInput.current?.select();
    }
  };

  return (
    <section className="card sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <p className="hint">
        Paste an access key and its secret. The owner key of a headless service is in <code>owner-key.json</code> in its data
        folder. Pinfold keeps them in this tab only, until you close it.
      </p>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate aria-describedby={errorId}>
        <div className="field">
          <label htmlFor={keyId}>Access key</label>
          <input
            ref={keyInput}
            id={keyId}
            name="accessKey"
            type="text"
            autoComplete="username"
            spellCheck={false}
            autoCapitalize="off"
            required
            aria-invalid={invalidField === 'accessKey' || undefined}
            placeholder="00000000-0000-0000-0000-000000000000"
          />
        </div>
        <div className="field">
          <label htmlFor={secretId}>Access secret</label>
          <input
            ref={secretInput}
            id={secretId}
            name="accessSecret"
            type="password"
            autoComplete="current-password"
            spellCheck={false}
            required
            aria-invalid={invalidField === 'accessSecret' || undefined}
          />
        </div>
        <ErrorMessage id={errorId} message={error} />
        <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
