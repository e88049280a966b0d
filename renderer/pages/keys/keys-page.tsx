import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { AccessKeyView, NewAccessKey } from '../../../shared/api-types.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useApi, useSession, useSessionControl } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { EmptyState } from '../../components/empty-state.js';
import { InlineError } from '../../components/inline-error.js';
import { Page } from '../../components/page.js';
import { Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { useEvent } from '../../events/events-provider.js';
import { deletionRefusal, splitKeys, type SessionKeyView } from '../../lib/access-keys.js';
import { AccessKeysTable } from './access-keys-table.js';
import { KeyForm, type NewKey } from './key-form.js';
import { SecretOnce, type KeychainOutcome } from './secret-once.js';
import { SessionsTable } from './sessions-table.js';
import { useKeptSecrets } from './use-kept-secrets.js';
import './keys.css';

type Creation = { step: 'closed' } | { step: 'form' } | { step: 'created'; name: string; key: NewAccessKey; keychain: KeychainOutcome };

/**
 * The account's access keys: create one with only the permissions it needs (the secret shown once, and
 * in the desktop app kept in the OS keychain if asked), delete with a confirmation; browser sessions
 * apart, with when each ends, Revoke, and Revoke all (which signs this window out too when it is one of
 * them). The key this window runs on is marked, and never deleted alone from here. Live: `event: key`
 * reloads the list.
 */
export function KeysPage() {
  const api = useApi();
  const { credentials } = useSession();
  const { signOut } = useSessionControl();
  const toasts = useToasts();
  const list = useResource((signal) => api.keys.list(signal), [api]);
  useEvent('key', () => list.reload());
  const split = useMemo(() => (list.data ? splitKeys(list.data.items) : undefined), [list.data]);
  const secrets = useKeptSecrets(useMemo(() => split?.keys.map((key) => key.access_key), [split]));

  const [creation, setCreation] = useState<Creation>({ step: 'closed' });
  const create = useAction((signal, key: NewKey) => api.keys.create({ name: key.name, permissions: key.permissions }, signal));
  const startCreating = () => {
    create.clearError();
    setCreation({ step: 'form' });
  };
  const submit = async (key: NewKey) => {
    const result = await create.run(key);
    if (!result.ok) return;
    const keychain = key.keep ? await secrets.keep(result.value.access_key, result.value.access_secret) : ({ kind: 'not-asked' } as const);
    setCreation({ step: 'created', name: key.name, key: result.value, keychain });
    list.reload();
  };

  const [refusal, setRefusal] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AccessKeyView | null>(null);
  const remove = useAction((signal, name: string) => api.keys.remove(name, signal));
  const askDelete = (key: AccessKeyView) => {
    const why = deletionRefusal(key, credentials.accessKey);
    setRefusal(why);
    if (why) return;
    remove.clearError();
    setDeleting(key);
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await remove.run(deleting.name);
    if (!result.ok) return;
    if (secrets.kept.has(deleting.access_key)) await secrets.forget(deleting.access_key);
    toasts.show(deleting.session ? `Revoked “${deleting.name}”.` : `Deleted the key “${deleting.name}”.`);
    setDeleting(null);
    list.reload();
  };

  const [revokingAll, setRevokingAll] = useState(false);
  const revokeAll = useAction((signal) => api.session.revokeAll(signal));
  const sessionCount = split?.sessions.length ?? 0;
  const ownSession = split?.sessions.some((session) => session.access_key === credentials.accessKey) ?? false;
  const askRevokeAll = () => {
    revokeAll.clearError();
    setRevokingAll(true);
  };
  const confirmRevokeAll = async () => {
    const result = await revokeAll.run();
    if (!result.ok) return;
    setRevokingAll(false);
    const count = result.value.revoked;
    const revoked = `Revoked ${count} browser ${count === 1 ? 'session' : 'sessions'}`;
    if (ownSession) {
      await signOut({ notice: `${revoked}, this window's too. Sign in again with a new link from \`pinfold open\`, or with an access key.` });
      return;
    }
    toasts.show(`${revoked}.`);
    list.reload();
  };

  // After Done or Cancel, focus goes back to the button that started it, not to the top of the document.
  const createButtonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (creation.step === 'closed' && wasOpen.current) createButtonRef.current?.focus();
    wasOpen.current = creation.step !== 'closed';
  }, [creation.step]);

  const keysHeading = useId();
  const sessionsHeading = useId();
  const createButton = (
    <Button ref={createButtonRef} variant="primary" icon="plus" onClick={startCreating}>
      Create key
    </Button>
  );

  return (
    <Page
      title="Keys"
      description="Access keys for scripts and apps, each with only the permissions it needs."
      actions={creation.step === 'closed' ? createButton : null}
    >
      {creation.step === 'form' ? (
        <Section title="New access key" description="The secret is shown once, right after the key is created.">
          <KeyForm
            existingNames={list.data?.items.map((key) => key.name) ?? []}
            busy={create.pending}
            error={create.error}
            offerKeychain={secrets.keychain !== null}
            onSubmit={(key) => void submit(key)}
            onCancel={() => setCreation({ step: 'closed' })}
          />
        </Section>
      ) : null}
      {creation.step === 'created' ? (
        <SecretOnce name={creation.name} created={creation.key} keychain={creation.keychain} onDone={() => setCreation({ step: 'closed' })} />
      ) : null}

      <section className="keys-section" aria-labelledby={keysHeading}>
        <div className="keys-section-head">
          <h2 id={keysHeading}>Access keys</h2>
          <p className="muted">Send a key and its secret as X-Access-Key and X-Access-Secret. Deleting a key stops everything that uses it at once.</p>
        </div>
        <InlineError message={refusal} />
        <AccessKeysTable
          label="Access keys"
          keys={split?.keys}
          loading={list.loading}
          waiting={list.waiting}
          error={list.error}
          onRetry={list.reload}
          signedInWith={credentials.accessKey}
          secrets={secrets}
          onDelete={askDelete}
          empty={
            <EmptyState
              icon="keys"
              title="No access keys yet"
              actions={
                creation.step === 'closed' ? (
                  <Button icon="plus" onClick={startCreating}>
                    Create a key
                  </Button>
                ) : undefined
              }
            >
              Create a key for each script or app, with only the permissions it needs, so you can stop one without touching the others.
            </EmptyState>
          }
        />
      </section>

      <section className="keys-section" aria-labelledby={sessionsHeading}>
        <div className="keys-section-bar">
          <div className="keys-section-head">
            <h2 id={sessionsHeading}>Browser sessions</h2>
            <p className="muted">Windows signed in with a one-time link. Each ends by itself after 7 days; Revoke ends it now.</p>
          </div>
          {sessionCount > 0 ? (
            <Button size="sm" icon="signOut" onClick={askRevokeAll}>
              Revoke all browser sessions
            </Button>
          ) : null}
        </div>
        <SessionsTable
          sessions={split?.sessions}
          loading={list.loading}
          waiting={list.waiting}
          error={list.error}
          onRetry={list.reload}
          signedInWith={credentials.accessKey}
          onRevoke={(session: SessionKeyView) => askDelete(session)}
        />
      </section>

      <ConfirmDialog
        open={deleting !== null}
        title={deleting?.session ? 'Revoke this browser session?' : `Delete the key “${deleting?.name ?? ''}”?`}
        confirmLabel={deleting?.session ? 'Revoke' : 'Delete key'}
        busyLabel={deleting?.session ? 'Revoking…' : 'Deleting…'}
        busy={remove.pending}
        error={remove.error}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        {deleting?.session ? (
          <p>
            “{deleting.name}” is signed out at its next request. Whoever uses that window signs in again with a new link from <code>pinfold open</code>.
          </p>
        ) : (
          <>
            <p>Every script and app that uses it is refused from its next request on. This cannot be undone: a new key gets a new secret.</p>
            {deleting && secrets.kept.has(deleting.access_key) ? <p>Its secret is removed from the OS keychain too.</p> : null}
          </>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={revokingAll}
        title="Revoke all browser sessions?"
        confirmLabel="Revoke all"
        busyLabel="Revoking…"
        busy={revokeAll.pending}
        error={revokeAll.error}
        onConfirm={() => void confirmRevokeAll()}
        onCancel={() => setRevokingAll(false)}
      >
        <p>
          Every window signed in with a one-time link ({sessionCount} {sessionCount === 1 ? 'session' : 'sessions'}) is signed out at its next request. Access
          keys go on working.
        </p>
        {ownSession ? <p>This window is one of them: it signs out too.</p> : null}
      </ConfirmDialog>
    </Page>
  );
}
