import { useEffect, useMemo, useRef, useState } from 'react';
import type { AccessKeyView } from '../../../shared/api-types.js';
import { useSession } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { Page } from '../../components/page.js';
import { Section } from '../../components/section.js';
import { useCreateKey, useKeyList } from '../../data/keys.js';
import { deletionRefusal, splitKeys } from '../../lib/access-keys.js';
import { AccessKeysSection } from './access-keys-section.js';
import { DeleteKeyDialog } from './delete-key-dialog.js';
import { KeyForm } from './key-form.js';
import { RevokeSessionsDialog } from './revoke-sessions-dialog.js';
import { SecretOnce } from './secret-once.js';
import { SessionsSection } from './sessions-section.js';
import { useKeptSecrets } from './use-kept-secrets.js';
import { useKeyCreation } from './use-key-creation.js';
import './keys.css';

/**
 * The account's access keys: create one with only the permissions it needs (the secret shown once, and
 * in the desktop app kept in the OS keychain if asked), delete with a confirmation; browser sessions
 * apart, with when each ends, Revoke, and Revoke all (which signs this window out too when it is one of
 * them). The key this window runs on is marked, and never deleted alone from here. Live: `event: key`
 * loads the list again (the request cache does: renderer/data/keys.ts).
 */
export function KeysPage() {
  const { credentials } = useSession();
  const list = useKeyList();
  const split = useMemo(() => (list.data ? splitKeys(list.data.items) : undefined), [list.data]);
  const secrets = useKeptSecrets(useMemo(() => split?.keys.map((key) => key.access_key), [split]));
  const create = useCreateKey();
  const creating = useKeyCreation(create, (key, created) =>
    key.keep ? secrets.keep(created.access_key, created.access_secret) : Promise.resolve({ kind: 'not-asked' }),
  );
  const { creation } = creating;

  const [refusal, setRefusal] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AccessKeyView | null>(null);
  const [revokingAll, setRevokingAll] = useState(false);
  const askDelete = (key: AccessKeyView) => {
    const why = deletionRefusal(key, credentials.accessKey);
    setRefusal(why);
    if (!why) setDeleting(key);
  };

  // After Done or Cancel, focus goes back to the button that started it, not to the top of the document.
  const createButtonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (creation.step === 'closed' && wasOpen.current) createButtonRef.current?.focus();
    wasOpen.current = creation.step !== 'closed';
  }, [creation.step]);

  const createButton = (
    <Button ref={createButtonRef} variant="primary" icon="plus" onClick={creating.start}>
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
            busy={creating.pending}
            error={creating.error}
            offerKeychain={secrets.keychain !== null}
            onSubmit={creating.submit}
            onCancel={creating.close}
          />
        </Section>
      ) : null}
      {creation.step === 'created' ? <SecretOnce name={creation.name} created={creation.key} keychain={creation.keychain} onDone={creating.close} /> : null}
      <AccessKeysSection
        keys={split?.keys}
        list={list}
        signedInWith={credentials.accessKey}
        secrets={secrets}
        refusal={refusal}
        onDelete={askDelete}
        onCreate={creation.step === 'closed' ? creating.start : null}
      />
      <SessionsSection
        sessions={split?.sessions}
        list={list}
        signedInWith={credentials.accessKey}
        onRevoke={askDelete}
        onRevokeAll={() => setRevokingAll(true)}
      />
      <DeleteKeyDialog target={deleting} secrets={secrets} onClose={() => setDeleting(null)} />
      <RevokeSessionsDialog
        open={revokingAll}
        sessionCount={split?.sessions.length ?? 0}
        thisWindowToo={split?.sessions.some((session) => session.access_key === credentials.accessKey) ?? false}
        onClose={() => setRevokingAll(false)}
      />
    </Page>
  );
}
