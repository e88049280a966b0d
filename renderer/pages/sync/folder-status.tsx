import type { SyncFolderDetail } from '../../../shared/api-types.js';
import { PublicNameControl } from '../../app/public-name-control.js';
import { InlineError } from '../../components/inline-error.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Facts, Section } from '../../components/section.js';
import { isFollowed } from '../../lib/followed-folders.js';
import { describeContent, folderName, ipnsNote } from '../../lib/sync-folders.js';
import { FolderIpnsName, FolderRoot } from './folder-identifiers.js';
import { FolderState } from './folder-state.js';
import { FollowedFolderFacts } from './followed-folder-status.js';
import type { FolderCommands } from './use-folder-commands.js';

export interface FolderStatusProps {
  folder: SyncFolderDetail;
  commands: FolderCommands;
  /** The service runs with --public-gateway: a plain link opens. */
  publicGateway: boolean;
}

/**
 * A folder's state and progress with the file being read (Retry when it is stalled), then what it holds and
 * where it is published, and whether its name is public on the IPFS network (a switch); a followed
 * folder's facts instead say where it follows from and the version it holds.
 */
export function FolderStatus({ folder, commands, publicGateway }: FolderStatusProps) {
  return (
    <Section title="Status">
      <div className="stack">
        <FolderState row={folder} showCurrentFile onRetry={() => void commands.run(folder.id, 'retry')} retrying={commands.pending(folder.id) === 'retry'} />
        <InlineError message={commands.error(folder.id)} />
        {isFollowed(folder) ? (
          <FollowedFolderFacts folder={folder} publicGateway={publicGateway} />
        ) : (
          <SyncedFolderFacts folder={folder} publicGateway={publicGateway} />
        )}
      </div>
    </Section>
  );
}

function SyncedFolderFacts({ folder, publicGateway }: { folder: SyncFolderDetail; publicGateway: boolean }) {
  return (
    <Facts
      items={[
        { label: 'Content', value: describeContent(folder), testId: 'folder-content' },
        { label: 'Last change', value: <RelativeTime unixSeconds={folder.last_synced_at} />, testId: 'folder-last-change' },
        { label: 'Root CID', value: <FolderRoot row={folder} publicGateway={publicGateway} />, testId: 'folder-root' },
        { label: 'IPNS name', value: <FolderIpnsName row={folder} publicGateway={publicGateway} />, testId: 'folder-ipns' },
        {
          label: 'On the IPFS network',
          value: ipnsNote(folder) ? (
            <span className="muted">Only a folder with an IPNS name can be public</span>
          ) : (
            // Its answer reaches this page through the request cache (data/names.ts).
            <PublicNameControl name={folder.ipns_name} label={folderName(folder.path)} isPublic={folder.public} withText />
          ),
          testId: 'folder-public',
        },
        { label: 'Synced since', value: <RelativeTime unixSeconds={folder.created_at} />, testId: 'folder-created' },
      ]}
    />
  );
}
