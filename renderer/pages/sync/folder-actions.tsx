import type { SyncFolderView } from '../../../shared/api-types.js';
import { Button, IconButton } from '../../components/button.js';
import { folderCondition, folderName } from '../../lib/sync-folders.js';
import type { IconName } from '../../components/icons.js';
import type { FolderCommand } from '../../data/sync-actions.js';
import type { FolderCommands } from './use-folder-commands.js';

export interface FolderActionsProps {
  row: SyncFolderView;
  commands: FolderCommands;
  onRemove: () => void;
  /** Icon buttons for a table row; labelled buttons for the folder's own page. */
  compact?: boolean;
}

/**
 * What can be done to a folder in its state: Resume when its user paused it, otherwise Pause; Rescan
 * while it runs (for a followed folder: a look for local changes; a stalled folder has Retry beside its message instead); Remove always. Each is named
 * after the folder ("Pause photos"), so a list of them reads right to a screen reader.
 */
export function FolderActions({ row, commands, onRemove, compact = false }: FolderActionsProps) {
  const name = folderName(row.path);
  const condition = folderCondition(row);
  const busy = commands.pending(row.id);
  const actions: ReadonlyArray<{ key: string; command: FolderCommand; icon: IconName; text: string; label: string }> = [
    condition === 'paused'
      ? { key: 'toggle', command: 'resume', icon: 'play', text: 'Resume', label: `Resume ${name}` }
      : { key: 'toggle', command: 'pause', icon: 'pause', text: 'Pause', label: `Pause ${name}` },
    ...(condition === 'running' ? [{ key: 'rescan', command: 'rescan' as const, icon: 'refresh' as const, text: 'Rescan', label: `Rescan ${name}` }] : []),
  ];
  // Pause and Resume share one key: the button stays the same element when it flips, so focus stays on it.
  const run = (command: FolderCommand) => () => void commands.run(row.id, command);
  if (compact) {
    return (
      <>
        {actions.map((action) => (
          <IconButton key={action.key} icon={action.icon} label={action.label} aria-busy={busy === action.command || undefined} onClick={run(action.command)} />
        ))}
        <IconButton icon="trash" variant="danger" label={`Remove ${name}`} onClick={onRemove} />
      </>
    );
  }
  return (
    <>
      {actions.map((action) => (
        <Button
          key={action.key}
          icon={action.icon}
          aria-label={action.label}
          busy={busy === action.command}
          busyLabel={`${action.text}…`}
          onClick={run(action.command)}
        >
          {action.text}
        </Button>
      ))}
      <Button icon="trash" variant="danger" aria-label={`Remove ${name}`} onClick={onRemove}>
        Remove
      </Button>
    </>
  );
}
