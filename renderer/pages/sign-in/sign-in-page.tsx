import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/api-error.js';
import { checkCredentials } from '../../api/credentials.js';
import { useServices } from '../../app/services-context.js';
import { useSessionControl } from '../../app/session.js';
import { Notice } from '../../components/banner.js';
import { Button } from '../../components/button.js';
import { BrandMark } from '../../components/icons.js';
import { InlineError } from '../../components/inline-error.js';
import { TextField } from '../../components/text-field.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { describeError } from '../../lib/messages.js';
import '../../components/surfaces.css';
import './sign-in.css';

/**
 * Sign-in: in the desktop app "Sign in as owner" (the bridge hands over the owner key); anywhere, an
 * access key and its secret, checked with a stats call before anything is kept. Sign-in links
 * (`pinfold open`) are redeemed by the session before this page shows.
 */
export function SignInPage({ notice }: { notice: string | null }) {
  const { apiFor } = useServices();
  const { signIn, signInAsOwner } = useSessionControl();
  const keyInput = useRef<HTMLInputElement>(null);
  const secretInput = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [invalidField, setInvalidField] = useState<'accessKey' | 'accessSecret' | null>(null);
  const [busy, setBusy] = useState(false);
  const desktop = desktopBridge() !== null;

  useEffect(() => {
    document.title = 'Sign in · Pinfold';
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const check = checkCredentials(keyInput.current?.value ?? '', secretInput.current?.value ?? '');
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
      await apiFor(check.credentials).account.stats();
      signIn(check.credentials, 'key');
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.error === 'permission'
          ? `This key may not read the account (${failure.msg}). Sign in with a key that has the admin permission.`
          : describeError(failure),
      );
      setBusy(false);
      secretInput.current?.select();
    }
  };

  return (
    <main className="sign-in-screen" id="main">
      <div className="sign-in-brand">
        <BrandMark size={32} />
        <span>Pinfold</span>
      </div>
      <section className="card sign-in" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in</h1>
        {notice ? <Notice role="status">{notice}</Notice> : null}
        {desktop ? (
          <div className="sign-in-owner">
            <Button variant="primary" icon="keys" onClick={signInAsOwner}>
              Sign in as owner
            </Button>
            <p className="muted">The desktop app signs you in with the owner key it keeps for you.</p>
          </div>
        ) : (
          <p className="muted">
            Run <code>pinfold open</code> on this machine for a one-time sign-in link, or paste an access key and its secret. The owner key of a headless
            service is in <code>owner-key.json</code> in its data folder.
          </p>
        )}
        <form className="sign-in-form" onSubmit={(event) => void submit(event)} noValidate>
          {desktop ? <p className="sign-in-divider">or with an access key</p> : null}
          <TextField
            ref={keyInput}
            label="Access key"
            name="accessKey"
            autoComplete="username"
            spellCheck={false}
            autoCapitalize="off"
            placeholder="00000000-0000-0000-0000-000000000000"
            error={invalidField === 'accessKey' ? error : null}
          />
          <TextField
            ref={secretInput}
            label="Access secret"
            name="accessSecret"
            type="password"
            autoComplete="current-password"
            spellCheck={false}
            error={invalidField === 'accessSecret' ? error : null}
          />
          <InlineError message={invalidField === null ? error : null} />
          <Button type="submit" variant={desktop ? 'secondary' : 'primary'} busy={busy} busyLabel="Signing in…">
            Sign in
          </Button>
          <p className="field-hint">Pinfold keeps the key in this tab only, until you close it.</p>
        </form>
      </section>
    </main>
  );
}
