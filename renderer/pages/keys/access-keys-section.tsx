import { useId } from 'react';
import type { AccessKeyView } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { EmptyState } from '../../components/empty-state.js';
import { InlineError } from '../../components/inline-error.js';
import type { ApiQuery } from '../../data/api-query.js';
import { AccessKeysTable } from './access-keys-table.js';
import type { KeptSecrets } from './use-kept-secrets.js';

export interface AccessKeysSectionProps {
  keys: AccessKeyView[] | undefined;
  /** The list's load: its state is the table's. */
  list: Pick<ApiQuery<unknown>, 'loading' | 'waiting' | 'error' | 'reload'>;
  signedInWith: string;
  secrets: KeptSecrets;
  /** Why the window will not delete the key asked for (deletionRefusal), beside the table. */
  refusal: string | null;
  onDelete: (key: AccessKeyView) => void;
  /** Create a key from the empty table; null while the form or a new secret is shown. */
  onCreate: (() => void) | null;
}

/** The account's access keys: what they are for, the table (the key this window runs on marked), and how to make the first. */
export function AccessKeysSection({ keys, list, signedInWith, secrets, refusal, onDelete, onCreate }: AccessKeysSectionProps) {
  const heading = useId();
  return (
    <section className="keys-section" aria-labelledby={heading}>
      <div className="keys-section-head">
        <h2 id={heading}>Access keys</h2>
        <p className="muted">Send a key and its secret as X-Access-Key and X-Access-Secret. Deleting a key stops everything that uses it at once.</p>
      </div>
      <InlineError message={refusal} />
      <AccessKeysTable
        label="Access keys"
        keys={keys}
        loading={list.loading}
        waiting={list.waiting}
        error={list.error}
        onRetry={list.reload}
        signedInWith={signedInWith}
        secrets={secrets}
        onDelete={onDelete}
        empty={
          <EmptyState
            icon="keys"
            title="No access keys yet"
            actions={
              onCreate ? (
                <Button icon="plus" onClick={onCreate}>
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
  );
}
