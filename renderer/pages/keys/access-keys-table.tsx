import type { ReactNode } from 'react';
import type { AccessKeyListing } from '../../../shared/api-types.js';
import { IconButton } from '../../components/button.js';
import { Cid } from '../../components/cid.js';
import { DataTable } from '../../components/data-table.js';
import { Tag } from '../../components/status-badge.js';
import { orderedPermissions, PERMISSION_INFO } from '../../lib/permissions.js';
import { KeptSecretButton } from './kept-secret-button.js';
import type { KeptSecrets } from './use-kept-secrets.js';
import './keys.css';

export interface AccessKeysTableProps<Key extends AccessKeyListing> {
  label: string;
  keys: readonly Key[] | undefined;
  loading: boolean;
  waiting: boolean;
  error: string | null;
  onRetry: () => void;
  empty: ReactNode;
  /** The key this window is signed in with: marked "This window". */
  signedInWith?: string;
  /** The desktop app's keychain: a "copy the secret" button on each key it holds. */
  secrets?: KeptSecrets;
  /** Delete was chosen on a row (the page confirms, or explains why not). */
  onDelete: (key: Key) => void;
}

/** Access keys as a table: name, access key (copy), permissions, and Delete (and Copy secret from the keychain). */
export function AccessKeysTable<Key extends AccessKeyListing>({
  label,
  keys,
  loading,
  waiting,
  error,
  onRetry,
  empty,
  signedInWith,
  secrets,
  onDelete,
}: AccessKeysTableProps<Key>) {
  const keychain = secrets?.keychain ?? null;
  return (
    <DataTable
      label={label}
      columns={[
        {
          key: 'name',
          header: 'Name',
          cell: (key) => (
            <span className="key-name">
              <span className="key-name-text">{key.name}</span>
              {'owner' in key && key.owner ? <Tag>Owner key</Tag> : null}
              {key.access_key === signedInWith ? <Tag>This window</Tag> : null}
              {secrets?.kept.has(key.access_key) ? <Tag>Secret in keychain</Tag> : null}
            </span>
          ),
        },
        { key: 'access_key', header: 'Access key', cell: (key) => <Cid value={key.access_key} copy what={`access key of ${key.name}`} head={8} tail={4} /> },
        {
          key: 'permissions',
          header: 'Permissions',
          cell: (key) => (
            <span className="key-permissions">
              {orderedPermissions(key.permissions).map((permission) => (
                <Tag key={permission}>{PERMISSION_INFO[permission].label}</Tag>
              ))}
              {key.permissions.includes('admin') ? <span className="muted key-permissions-note">all permissions</span> : null}
            </span>
          ),
        },
      ]}
      rows={keys}
      rowKey={(key) => key.access_key}
      loading={loading}
      waiting={waiting}
      error={error}
      onRetry={onRetry}
      empty={empty}
      rowClassName={(key) => (key.access_key === signedInWith ? 'is-current' : undefined)}
      rowActions={(key) => (
        <>
          {keychain && secrets?.kept.has(key.access_key) ? (
            <KeptSecretButton keychain={keychain} accessKey={key.access_key} name={key.name} onLost={() => secrets.lost(key.access_key)} />
          ) : null}
          <IconButton icon="trash" variant="danger" size="sm" label={`Delete key ${key.name}`} onClick={() => onDelete(key)} />
        </>
      )}
    />
  );
}
