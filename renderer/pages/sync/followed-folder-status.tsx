import type { SyncFolderDetail } from '../../../shared/api-types.js';
import { Cid } from '../../components/cid.js';
import { CopyButton } from '../../components/copy-button.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Facts } from '../../components/section.js';
import { heldVersion } from '../../lib/followed-folders.js';
import { describeContent, folderName } from '../../lib/sync-folders.js';
import { CheckedAgo } from './checked-ago.js';
import { FolderIpnsName } from './folder-identifiers.js';
import { GatewayOpen } from './gateway-open.js';

/**
 * What a followed folder's page says of it beside its state: where it follows from (the source as given,
 * the name, any extra gateways), the version it holds (the record's sequence and its root), what that
 * version holds, the last look for a newer one, and since when it follows. Nothing here is edited.
 */
export function FollowedFolderFacts({ folder, publicGateway }: { folder: SyncFolderDetail; publicGateway: boolean }) {
  const name = folderName(folder.path);
  return (
    <Facts
      items={[
        {
          label: 'Source',
          value: (
            <span className="identifier follow-source">
              <span className="mono wrap-anywhere">{folder.source}</span>
              <CopyButton value={folder.source} what="source" compact size="sm" />
            </span>
          ),
          testId: 'follow-source',
        },
        { label: 'IPNS name', value: <FolderIpnsName row={folder} publicGateway={publicGateway} />, testId: 'folder-ipns' },
        {
          label: 'Extra gateways',
          value:
            folder.from.length > 0 ? (
              <ul className="plain-list" aria-label="Extra gateways">
                {folder.from.map((gateway) => (
                  <li key={gateway} className="mono wrap-anywhere">
                    {gateway}
                  </li>
                ))}
              </ul>
            ) : (
              <span className="muted">None: the network settings' sources only</span>
            ),
          testId: 'follow-gateways',
        },
        {
          label: 'Version held',
          value:
            folder.root === '' ? (
              <span className="muted">None yet</span>
            ) : (
              <span className="held-version">
                <span>{heldVersion(folder)}</span>
                <span className="identifier">
                  <Cid value={folder.root} copy what={`root CID of ${name}`} />
                  <GatewayOpen path={`/ipfs/${folder.root}/`} label={`Open the version of ${name} in the gateway`} publicGateway={publicGateway} />
                </span>
              </span>
            ),
          testId: 'follow-version',
        },
        { label: 'Content', value: folder.root === '' ? <span className="muted">—</span> : describeContent(folder), testId: 'folder-content' },
        { label: 'Last check', value: <CheckedAgo unixSeconds={folder.checked_at} />, testId: 'follow-checked' },
        { label: 'Last update', value: <RelativeTime unixSeconds={folder.last_synced_at} />, testId: 'folder-last-change' },
        { label: 'Following since', value: <RelativeTime unixSeconds={folder.created_at} />, testId: 'folder-created' },
      ]}
    />
  );
}
