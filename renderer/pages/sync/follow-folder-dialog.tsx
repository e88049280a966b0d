import { useState } from 'react';
import type { SyncFolderView } from '../../../shared/api-types.js';
import { ApiError } from '../../api/api-error.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useApi } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { FormDialog } from '../../components/form-dialog.js';
import { TextAreaField, TextField } from '../../components/text-field.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { followInputProblems, followRefusal, parseGatewayLines, type FollowField, type FollowRefusal } from '../../lib/followed-folders.js';
import { describeError } from '../../lib/messages.js';

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
  const api = useApi();
  const bridge = desktopBridge();
  const [name, setName] = useState('');
  const [path, setPath] = useState('');
  const [gateways, setGateways] = useState('');
  const [problems, setProblems] = useState<Partial<Record<FollowField, string>>>({});
  const [refusal, setRefusal] = useState<FollowRefusal | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const follow = useAction(async (signal, request: { name: string; path: string; from: string[] }) => {
    try {
      return await api.sync.follow({ name: request.name, path: request.path, from: request.from.length > 0 ? request.from : undefined }, signal);
    } catch (failure) {
      // The service names the parameter at fault: its words go beside that field (useAction shows the rest).
      if (failure instanceof ApiError && (failure.error === 'bad_input' || failure.error === 'conflict'))
        setRefusal(followRefusal(failure.detail.param, failure.msg));
      throw failure;
    }
  });

  // A new drop fills the folder path (adjusted while rendering: the drop is the page's state, the field is ours).
  const [seenDrop, setSeenDrop] = useState(droppedPath);
  if (droppedPath !== seenDrop) {
    setSeenDrop(droppedPath);
    if (droppedPath) {
      setPath(droppedPath);
      setProblems((current) => ({ ...current, path: undefined }));
      setRefusal((current) => (current?.field === 'path' ? null : current));
    }
  }

  const reset = () => {
    setName('');
    setPath('');
    setGateways('');
    setProblems({});
    setRefusal(null);
    setPickError(null);
    follow.clearError();
  };

  const edited = (field: FollowField) => {
    setProblems((current) => ({ ...current, [field]: undefined }));
    setRefusal((current) => (current?.field === field ? null : current));
    follow.clearError();
  };

  const submit = async () => {
    const found = followInputProblems(name, path);
    setProblems(found);
    setRefusal(null);
    if (Object.keys(found).length > 0) return;
    const result = await follow.run({ name: name.trim(), path: path.trim(), from: parseGatewayLines(gateways) });
    if (!result.ok) return;
    reset();
    onFollowed(result.value);
  };

  const choose = async () => {
    if (!bridge) return;
    setPickError(null);
    try {
      const picked = await bridge.pickFolder();
      if (picked) {
        setPath(picked);
        edited('path');
      }
    } catch (error) {
      setPickError(`The desktop app could not open the folder picker: ${describeError(error)}`);
    }
  };

  const fieldError = (field: FollowField): string | null => problems[field] ?? (refusal?.field === field ? refusal.message : null);
  // A refusal placed beside its field is not said twice above the buttons.
  const formError = refusal?.field ? null : (refusal?.message ?? follow.error);
  return (
    <FormDialog
      open={open}
      title="Follow a folder"
      description="Mirror another machine's synced folder here: Pinfold fetches each new version it publishes, checks every block, and writes it into the folder. Files you change here are never overwritten."
      submitLabel="Follow"
      busyLabel="Following…"
      busy={follow.pending}
      error={formError ?? pickError}
      onSubmit={() => void submit()}
      onCancel={() => {
        reset();
        onClose();
      }}
    >
      <TextField
        label="IPNS name to follow"
        placeholder="k51qzi5uqu5d… or https://gateway.example/ipns/k51…"
        hint="The folder's IPNS name (k51… or 12D3KooW…), /ipns/<name>, or a gateway link ending in /ipns/<name>: that gateway is then asked too."
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          edited('name');
        }}
        error={fieldError('name')}
        spellCheck={false}
        autoComplete="off"
        className="mono-field"
      />
      <div className="follow-path">
        <TextField
          label="Folder on this computer"
          placeholder="/home/you/Shared/site"
          hint={
            bridge
              ? 'Its full path: a new or empty folder, or one whose files you keep (they are never overwritten). Or drop a folder on the page.'
              : 'Its full path: a new or empty folder, or one whose files you keep (they are never overwritten).'
          }
          value={path}
          onChange={(event) => {
            setPath(event.target.value);
            edited('path');
          }}
          error={fieldError('path')}
          spellCheck={false}
          autoComplete="off"
        />
        {bridge ? (
          <Button icon="folder" onClick={() => void choose()} className="follow-path-choose">
            Choose…
          </Button>
        ) : null}
      </div>
      <TextAreaField
        label="Extra gateways (optional)"
        placeholder="https://gateway.example"
        hint="One per line: gateways to ask for the name's records and blocks, besides the network settings' sources."
        rows={2}
        value={gateways}
        onChange={(event) => {
          setGateways(event.target.value);
          edited('from');
        }}
        error={fieldError('from')}
        spellCheck={false}
        autoComplete="off"
      />
    </FormDialog>
  );
}
