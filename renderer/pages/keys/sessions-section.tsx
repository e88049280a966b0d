import { useId } from 'react';
import { Button } from '../../components/button.js';
import type { ApiQuery } from '../../data/api-query.js';
import type { SessionKeyView } from '../../lib/access-keys.js';
import { SessionsTable } from './sessions-table.js';

export interface SessionsSectionProps {
  sessions: SessionKeyView[] | undefined;
  /** The list's load: its state is the table's. */
  list: Pick<ApiQuery<unknown>, 'loading' | 'waiting' | 'error' | 'reload'>;
  signedInWith: string;
  onRevoke: (session: SessionKeyView) => void;
  onRevokeAll: () => void;
}

/** Browser sessions: windows signed in with a one-time link, when each ends, Revoke, and Revoke all. */
export function SessionsSection({ sessions, list, signedInWith, onRevoke, onRevokeAll }: SessionsSectionProps) {
  const heading = useId();
  return (
    <section className="keys-section" aria-labelledby={heading}>
      <div className="keys-section-bar">
        <div className="keys-section-head">
          <h2 id={heading}>Browser sessions</h2>
          <p className="muted">Windows signed in with a one-time link. Each ends by itself after 7 days; Revoke ends it now.</p>
        </div>
        {sessions && sessions.length > 0 ? (
          <Button size="sm" icon="signOut" onClick={onRevokeAll}>
            Revoke all browser sessions
          </Button>
        ) : null}
      </div>
      <SessionsTable
        sessions={sessions}
        loading={list.loading}
        waiting={list.waiting}
        error={list.error}
        onRetry={list.reload}
        signedInWith={signedInWith}
        onRevoke={onRevoke}
      />
    </section>
  );
}
