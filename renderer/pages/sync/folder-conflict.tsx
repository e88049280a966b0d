import type { SyncFolderDetail } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { Cid } from '../../components/cid.js';
import { InlineError } from '../../components/inline-error.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { usePublishOverConflict } from '../../data/sync-actions.js';
import { conflictSource } from '../../lib/followed-folders.js';
import { formatCount } from '../../lib/format.js';
import { folderName } from '../../lib/sync-folders.js';

/**
 * A sync folder whose IPNS name has a newer record published elsewhere (the same key on another machine):
 * what was seen, that syncing goes on but publishing stops, and "Publish mine anyway" (POST sync/publish
 * with force), which publishes this folder's current version above the sequence seen (the page then loads
 * again: the request cache).
 */
export function FolderConflict({ folder }: { folder: SyncFolderDetail }) {
  const toasts = useToasts();
  const publish = usePublishOverConflict();
  const conflict = folder.conflict;
  if (!conflict) return null;
  const name = folderName(folder.path);
  return (
    <Section
      title="Another machine published this name"
      className="conflict-section"
      description="Syncing goes on here (each change is pinned and kept as a version), but publishing stops so that neither machine overwrites the other."
      actions={
        <Button
          variant="primary"
          busy={publish.pending}
          busyLabel="Publishing…"
          onClick={() =>
            void publish.run(folder.id).then((result) => {
              if (!result.ok) return;
              toasts.show(`Published ${name}: its IPNS name points at this computer's version again.`);
            })
          }
        >
          Publish mine anyway
        </Button>
      }
    >
      <div className="stack">
        <dl className="facts" data-testid="folder-conflict">
          <div>
            <dt>Their version</dt>
            <dd>
              <span className="held-version">
                <span>Sequence {formatCount(conflict.seq)}</span>
                <Cid value={conflict.value.replace(/^\/ipfs\//, '')} copy what="CID published elsewhere" />
              </span>
            </dd>
          </div>
          <div>
            <dt>Seen</dt>
            <dd>
              <RelativeTime unixSeconds={conflict.seen_at} />, <span className="muted">{conflictSource(conflict)}</span>
            </dd>
          </div>
        </dl>
        <p className="muted small">
          Publish mine anyway points the name at this folder's current version, above the other machine's: everyone who resolves it gets this one. Or stop
          syncing here and follow the other machine instead.
        </p>
        <InlineError message={publish.error} />
      </div>
    </Section>
  );
}
