import { Button } from '../../components/button.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Tag } from '../../components/status-badge.js';
import type { SessionKeyView } from '../../lib/access-keys.js';

export interface SessionsTableProps {
  sessions: readonly SessionKeyView[] | undefined;
  loading: boolean;
  waiting: boolean;
  error: string | null;
  onRetry: () => void;
  signedInWith: string;
  onRevoke: (session: SessionKeyView) => void;
}

/** Browser sessions (session keys from sign-in links): when each ends, which one is this window, Revoke. */
export function SessionsTable({ sessions, loading, waiting, error, onRetry, signedInWith, onRevoke }: SessionsTableProps) {
  return (
    <DataTable
      label="Browser sessions"
      columns={[
        {
          key: 'name',
          header: 'Session',
          cell: (session) => (
            <span className="key-name">
              <span className="key-name-text">{session.name}</span>
              {session.access_key === signedInWith ? <Tag>This window</Tag> : null}
            </span>
          ),
        },
        {
          key: 'expires',
          header: 'Ends',
          cell: (session) => (
            <span className="nowrap">
              <RelativeTime unixSeconds={session.expires_at} />
            </span>
          ),
        },
      ]}
      rows={sessions}
      rowKey={(session) => session.access_key}
      loading={loading}
      waiting={waiting}
      error={error}
      onRetry={onRetry}
      rowClassName={(session) => (session.access_key === signedInWith ? 'is-current' : undefined)}
      empty={
        <EmptyState icon="clock" title="No browser sessions">
          A sign-in link from <code>pinfold serve</code> or <code>pinfold open</code> starts one; it lasts 7 days or until Sign out.
        </EmptyState>
      }
      rowActions={(session) => (
        <Button size="sm" variant="secondary" aria-label={`Revoke ${session.name}`} onClick={() => onRevoke(session)}>
          Revoke
        </Button>
      )}
    />
  );
}
