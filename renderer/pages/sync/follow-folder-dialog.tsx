import type { SyncFolderView } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { FormDialog } from '../../components/form-dialog.js';
import { TextAreaField, TextField } from '../../components/text-field.js';
import { useFollowForm } from './use-follow-form.js';

export interface FollowFolderDialogProps {
  open: boolean;
  /** A folder the desktop app located from a drop on the page while the dialog is open: it becomes the folder path. */
  droppedPath: string | null;
  onClose: () => void;
  onFollowed: (row: SyncFolderView) => void;
}

/**
 * "Follow a folder": another machine's synced folder (its IPNS name, `/ipns/<name>`, or a gateway link ending
 * in /ipns/<name>) mirrored into a folder here, read-only (POST /api/v0/sync/follow). The folder is typed, or
 * chosen with the desktop app's picker, or dropped on the page. The service's refusal is shown beside the
 * field it names; anything else above the buttons.
 */
export function FollowFolderDialog({ open, droppedPath, onClose, onFollowed }: FollowFolderDialogProps) {
  const form = useFollowForm(droppedPath);
  return (
    <FormDialog
      open={open}
      title="Follow a folder"
      description="Mirror another machine's synced folder here: Pinfold fetches each new version it publishes, checks every block, and writes it into the folder. Files you change here are never overwritten."
      submitLabel="Follow"
      busyLabel="Following…"
      busy={form.pending}
      error={form.formError}
      onSubmit={() =>
        void form.submit().then((row) => {
          if (row) onFollowed(row);
        })
      }
      onCancel={() => {
        form.reset();
        onClose();
      }}
    >
      <TextField
        label="IPNS name to follow"
        placeholder="k51qzi5uqu5d… or https://gateway.example/ipns/k51…"
        hint="The folder's IPNS name (k51… or 12D3KooW…), /ipns/<name>, or a gateway link ending in /ipns/<name>: that gateway is then asked too."
        value={form.values.name}
        onChange={(event) => form.edit('name', event.target.value)}
        error={form.fieldError('name')}
        spellCheck={false}
        autoComplete="off"
        className="mono-field"
      />
      <div className="follow-path">
        <TextField
          label="Folder on this computer"
          placeholder="/home/you/Shared/site"
          hint={
            form.choose
              ? 'Its full path: a new or empty folder, or one whose files you keep (they are never overwritten). Or drop a folder on the page.'
              : 'Its full path: a new or empty folder, or one whose files you keep (they are never overwritten).'
          }
          value={form.values.path}
          onChange={(event) => form.edit('path', event.target.value)}
          error={form.fieldError('path')}
          spellCheck={false}
          autoComplete="off"
        />
        {form.choose ? (
          <Button icon="folder" onClick={() => void form.choose?.()} className="follow-path-choose">
            Choose…
          </Button>
        ) : null}
      </div>
      <TextAreaField
        label="Extra gateways (optional)"
        placeholder="https://gateway.example"
        hint="One per line: gateways to ask for the name's records and blocks, besides the network settings' sources."
        rows={2}
        value={form.values.from}
        onChange={(event) => form.edit('from', event.target.value)}
        error={form.fieldError('from')}
        spellCheck={false}
        autoComplete="off"
      />
    </FormDialog>
  );
}
