import { Link } from 'wouter';
import type { PartnerUserSummary } from '../../../shared/api-types.js';
import type { ListPage } from '../../api/core.js';
import { Button } from '../../components/button.js';
import { Cid } from '../../components/cid.js';
import { DataTable } from '../../components/data-table.js';
import { EmptyState } from '../../components/empty-state.js';
import { Pagination } from '../../components/pagination.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Tag } from '../../components/status-badge.js';
import type { ApiQuery } from '../../data/api-query.js';
import { formatBytes, formatCount } from '../../lib/format.js';
import type { ListPosition } from '../../lib/list-params.js';
import { partnersHref } from '../../lib/partner-users.js';

export interface UsersListProps {
  users: ApiQuery<ListPage<PartnerUserSummary>>;
  position: ListPosition;
  onPositionChange: (position: ListPosition) => void;
  params: URLSearchParams;
  onCreate: (() => void) | null;
}

/** The users this partner created, newest first, a page at a time; each name opens the user. */
export function UsersList({ users, position, onPositionChange, params, onCreate }: UsersListProps) {
  return (
    <>
      <DataTable
        label="Users"
        columns={[
          {
            key: 'name',
            header: 'Name',
            cell: (user) => (
              <Link href={partnersHref(params, user.uuid)} className="partner-user-link">
                {user.name}
              </Link>
            ),
          },
          {
            key: 'uuid',
            header: 'User ID',
            secondary: true,
            cell: (user) => <Cid value={user.uuid} copy what={`user ID of ${user.name}`} head={8} tail={4} />,
          },
          { key: 'plan', header: 'Plan', cell: (user) => <Tag>{user.plan}</Tag> },
          {
            key: 'pinned',
            header: 'Pinned',
            align: 'end',
            cell: (user) => (
              <span className="numeric nowrap">
                {formatBytes(user.pinned_bytes)}
                <span className="muted">
                  {' '}
                  · {formatCount(user.pinned_count)} {user.pinned_count === 1 ? 'pin' : 'pins'}
                </span>
              </span>
            ),
          },
          { key: 'created', header: 'Created', secondary: true, cell: (user) => <RelativeTime unixSeconds={user.created_at} /> },
        ]}
        rows={users.data?.items}
        rowKey={(user) => user.uuid}
        loading={users.loading}
        waiting={users.waiting}
        error={users.error}
        onRetry={users.reload}
        empty={
          <EmptyState
            icon="partners"
            title="No users yet"
            actions={
              onCreate ? (
                <Button icon="plus" onClick={onCreate}>
                  Create a user
                </Button>
              ) : undefined
            }
          >
            Create an account for each of your customers: each gets its own plan, limits and access keys, and you see its usage here.
          </EmptyState>
        }
      />
      {users.data && users.data.total > 0 ? <Pagination label="Users" total={users.data.total} {...position} onChange={onPositionChange} /> : null}
    </>
  );
}
