import type { SyncFolderView } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { ProgressBar } from '../../components/progress-bar.js';
import { StatusBadge } from '../../components/status-badge.js';
import { syncStateLook } from '../../lib/status.js';
import { followProgress, followStateDetail, followStateLook, isFollowed } from '../../lib/followed-folders.js';
import { describeProgress, folderCondition, folderName, stateDetail, syncProgress } from '../../lib/sync-folders.js';

export interface FolderStateProps {
  row: SyncFolderView;
  /** Offered while the folder is stalled (in error, or its folder gone): try again now. */
  onRetry?: () => void;
  retrying?: boolean;
  /** The detail page shows the file being read; the list keeps to the figures. */
  showCurrentFile?: boolean;
}

/**
 * A folder's state as a badge and a sentence: its progress while syncing (files and bytes, with a bar),
 * or what is wrong and Retry beside it. A folder the service paused because it is gone gets a danger
 * badge, not the calm one of a pause its user asked for.
 */
export function FolderState({ row, onRetry, retrying = false, showCurrentFile = false }: FolderStateProps) {
  const condition = folderCondition(row);
  const followed = isFollowed(row);
  const base = followed ? followStateLook(row) : syncStateLook(row.state);
  // A sync folder that syncs but may not publish (a newer record of its name elsewhere) wants its user: said in the badge too.
  const conflicted = !followed && row.conflict !== null && row.state === 'idle';
  const look = condition === 'stalled' ? { ...base, tone: 'danger' as const } : conflicted ? { label: 'Not published', tone: 'warning' as const } : base;
  // On the folder's own page, an idle folder says what it is doing rather than nothing.
  const idleWords = followed
    ? 'Following: each newer version is fetched, checked block by block and written here.'
    : row.conflict
      ? 'Watching for changes: each one is pinned and kept as a version.'
      : 'Watching for changes: each one is pinned and published within a second or so.';
  const detail = (followed ? followStateDetail(row) : stateDetail(row)) || (showCurrentFile && row.state === 'idle' ? idleWords : '');
  const warned = row.unreadable.length > 0 || (followed && row.local_changes.length > 0 && row.state === 'idle');
  const progress = followed ? null : syncProgress(row);
  const updating = followed && row.state === 'syncing' ? followProgress(row) : null;
  const name = folderName(row.path);
  const verb = followed ? 'Updating' : 'Syncing';
  return (
    <div className="folder-state" data-testid="folder-state">
      <StatusBadge look={look} />
      {updating ? (
        <ProgressBar label={`Updating ${name}`} hideLabel value={updating.fraction} valueText={updating.text} />
      ) : progress ? (
        <ProgressBar label={`${verb} ${name}`} hideLabel value={progress.fraction} valueText={describeProgress(progress)} />
      ) : row.state === 'scanning' ? (
        <ProgressBar label={`${followed ? 'Checking' : 'Scanning'} ${name}`} hideLabel value={null} valueText={detail} />
      ) : null}
      {detail ? (
        <p className={condition === 'stalled' ? 'folder-state-detail is-problem' : warned ? 'folder-state-detail is-warning' : 'folder-state-detail'}>
          {detail}
        </p>
      ) : null}
      {showCurrentFile && row.current_file ? (
        <p className="folder-state-detail" data-testid="current-file">
          Now: <span className="mono">{row.current_file}</span>
        </p>
      ) : null}
      {!followed && row.conflict ? (
        <p className="folder-state-detail is-warning" data-testid="folder-conflict-note">
          Publishing stopped: a newer version of its IPNS name was published elsewhere.
        </p>
      ) : null}
      {condition === 'stalled' && onRetry ? (
        <div>
          <Button size="sm" icon="refresh" busy={retrying} busyLabel="Retrying…" onClick={onRetry} aria-label={`Retry ${name}`}>
            Retry
          </Button>
        </div>
      ) : null}
    </div>
  );
}
