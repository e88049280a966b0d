import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { SyncFolderDetail } from '../../../shared/api-types.js';
import { ApiError } from '../../api/api-error.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { PublicNameControl } from '../../app/public-name-control.js';
import { useApi } from '../../app/session.js';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState } from '../../components/empty-state.js';
import { InlineError } from '../../components/inline-error.js';
import { Page } from '../../components/page.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Facts, Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { useEvent } from '../../events/events-provider.js';
import { describeContent, folderName, ipnsNote } from '../../lib/sync-folders.js';
import { followOrigin, isFollowed, sourceGateway } from '../../lib/followed-folders.js';
import { FolderActions } from './folder-actions.js';
import { FolderConflict } from './folder-conflict.js';
import { FolderHistory } from './folder-history.js';
import { FolderIpnsName, FolderRoot } from './folder-identifiers.js';
import { FolderProblems } from './folder-problems.js';
import { FolderState } from './folder-state.js';
import { FollowedFolderFacts } from './followed-folder-status.js';
import { FollowingTag } from './following-tag.js';
import { IgnorePatterns } from './ignore-patterns.js';
import { LocalChanges } from './local-changes.js';
import { OpenInFileManager } from './open-in-file-manager.js';
import { isOwnerOnlyRefusal, SyncOwnerOnly } from './owner-only.js';
import { RemoveFolderDialog } from './remove-folder-dialog.js';
import { useFolderCommands } from './use-folder-commands.js';
import { useServiceFacts } from './use-service-facts.js';
import './sync.css';

type Loaded = { kind: 'folder'; folder: SyncFolderDetail } | { kind: 'owner-only' } | { kind: 'missing'; message: string };

/**
 * A followed folder (mode 'follow') shows where it follows from, the version it holds, its last check and
 * its local changes (Discard) instead of publishing and ignore editing; a sync folder whose name was
 * published elsewhere shows the conflict first (Publish mine anyway).
 *
 * One sync folder: its state and progress with the file being read, Retry when it is stalled, what it
 * holds and where it is published (and whether its name is public on the IPFS network: a switch), its errors, its ignore patterns (edit; `.pinfoldignore` read-only)
 * and its history (every kept version: browse, compare, restore; see folder-history.tsx). Live: `event: sync` for this folder patches the page in place, and a new state
 * or root loads the batches and errors again.
 */
export function SyncFolderPage({ id }: { id: string }) {
  const api = useApi();
  const toasts = useToasts();
  const [, navigate] = useLocation();
  const facts = useServiceFacts();
  const [removing, setRemoving] = useState(false);
  const [gone, setGone] = useState(false);
  const detail = useResource(
    async (signal): Promise<Loaded> => {
      try {
        return { kind: 'folder', folder: await api.sync.detail(id, signal) };
      } catch (error) {
        if (isOwnerOnlyRefusal(error)) return { kind: 'owner-only' };
        if (error instanceof ApiError && (error.error === 'not_found' || error.error === 'bad_input')) return { kind: 'missing', message: error.msg };
        throw error;
      }
    },
    [api, id],
  );
  const commands = useFolderCommands(() => detail.reload());

  useEvent('sync', (event) => {
    if (event.id !== id) return;
    if ('removed' in event) {
      setGone(true);
      return;
    }
    const before = detail.data?.kind === 'folder' ? detail.data.folder : undefined;
    detail.update((current) => (current?.kind === 'folder' ? { kind: 'folder', folder: { ...current.folder, ...event } } : current));
    // Progress alone patches in place; a settled batch, a new state or error brings new batches and errors.
    if (
      !before ||
      before.root !== event.root ||
      before.state !== event.state ||
      before.error !== event.error ||
      before.last_synced_at !== event.last_synced_at
    ) {
      detail.reload();
    }
  });

  const loaded = detail.data;
  if (gone || loaded?.kind === 'missing') {
    return (
      <Page title="Sync folder not found">
        <EmptyState icon="sync" title="This folder is not synced" actions={<Link href="/sync">See all sync folders</Link>}>
          {gone ? 'It was removed while this page was open. Its last root stays pinned.' : `There is no sync folder with the id ${id}.`}
        </EmptyState>
      </Page>
    );
  }
  if (loaded?.kind === 'owner-only') {
    return (
      <Page title="Sync folder">
        <SyncOwnerOnly />
      </Page>
    );
  }
  if (!loaded) {
    return (
      <Page title="Sync folder">
        {detail.error ? (
          <InlineError message={detail.error} onRetry={detail.reload} />
        ) : (
          <p className="muted" role="status">
            {detail.waiting ? 'Waiting for the Pinfold service…' : 'Loading…'}
          </p>
        )}
      </Page>
    );
  }

  const folder = loaded.folder;
  const name = folderName(folder.path);
  const publicGateway = facts?.public_gateway ?? false;
  const followed = isFollowed(folder);
  return (
    <Page
      title={name}
      description={
        <>
          {followed ? (
            <span className="folder-heading-mode">
              <FollowingTag /> from <span className={sourceGateway(folder.source) ? '' : 'mono'}>{followOrigin(folder)}</span>
            </span>
          ) : null}
          <span className="folder-heading-path">
            <span className="mono">{folder.path}</span>
            <CopyButton value={folder.path} what="folder path" compact size="sm" />
            <OpenInFileManager path={folder.path} />
          </span>
        </>
      }
      actions={<FolderActions row={folder} commands={commands} onRemove={() => setRemoving(true)} />}
    >
      {detail.error ? <InlineError message={detail.error} onRetry={detail.reload} /> : null}
      {followed ? null : <FolderConflict folder={folder} onPublished={detail.reload} />}
      <Section title="Status">
        <div className="stack">
          <FolderState row={folder} showCurrentFile onRetry={() => void commands.run(folder.id, 'retry')} retrying={commands.pending(folder.id) === 'retry'} />
          <InlineError message={commands.error(folder.id)} />
          {followed ? (
            <FollowedFolderFacts folder={folder} publicGateway={publicGateway} />
          ) : (
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
                    <PublicNameControl
                      name={folder.ipns_name}
                      label={name}
                      isPublic={folder.public}
                      withText
                      onChanged={(view) =>
                        detail.update((current) =>
                          current?.kind === 'folder' ? { kind: 'folder', folder: { ...current.folder, public: view.public } } : current,
                        )
                      }
                    />
                  ),
                  testId: 'folder-public',
                },
                { label: 'Synced since', value: <RelativeTime unixSeconds={folder.created_at} />, testId: 'folder-created' },
              ]}
            />
          )}
        </div>
      </Section>
      {followed ? <LocalChanges folder={folder} onDiscarded={detail.reload} /> : null}
      <FolderProblems folder={folder} />
      {followed ? null : <IgnorePatterns folder={folder} onSaved={detail.reload} />}
      <FolderHistory folder={folder} onChanged={detail.reload} />
      <RemoveFolderDialog
        folder={removing ? folder : null}
        onCancel={() => setRemoving(false)}
        onRemoved={(removed) => {
          toasts.show(
            followed
              ? `${folderName(removed.path)} is no longer followed. Its files stay on this computer.`
              : `${folderName(removed.path)} is no longer synced. Its last root stays pinned.`,
          );
          navigate('/sync');
        }}
      />
    </Page>
  );
}
