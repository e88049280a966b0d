import { useId, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { TextField } from '../../components/text-field.js';
import type { RecentUpload } from '../../lib/recent-uploads.js';

/** The service's longest pin name. */
export const MAX_PIN_NAME = 255;

/** Checked before asking the service, so a name it would refuse never leaves the page. */
export function pinNameProblem(name: string): string | null {
  return name.length > MAX_PIN_NAME ? `A pin name can have at most ${MAX_PIN_NAME} characters (this one has ${name.length}).` : null;
}

/** "Pin…" on an upload that is not pinned: asks for the pin's name (the file's or folder's by default). */
export function PinUploadDialog({
  upload,
  busy,
  error,
  onPin,
  onCancel,
}: {
  upload: RecentUpload | null;
  busy: boolean;
  error: string | null;
  onPin: (name: string) => void;
  onCancel: () => void;
}) {
  const formId = useId();
  return (
    <ConfirmDialog
      open={upload !== null}
      title="Pin this upload?"
      confirmLabel="Pin"
      busyLabel="Pinning…"
      tone="primary"
      busy={busy}
      error={error}
      onCancel={onCancel}
      // The form checks the name, on Pin as on Enter.
      onConfirm={() => (document.getElementById(formId) as HTMLFormElement | null)?.requestSubmit()}
    >
      {upload ? <PinNameForm key={upload.cid} id={formId} upload={upload} onPin={onPin} /> : null}
    </ConfirmDialog>
  );
}

function PinNameForm({ id, upload, onPin }: { id: string; upload: RecentUpload; onPin: (name: string) => void }) {
  const [name, setName] = useState(upload.name.slice(0, MAX_PIN_NAME));
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      id={id}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const found = pinNameProblem(name);
        setProblem(found);
        if (!found) onPin(name);
      }}
    >
      <p>A pinned upload stays until you unpin it; one that is not pinned is deleted by a later garbage collection.</p>
      <TextField
        label="Pin name"
        value={name}
        error={problem}
        hint="Shown in the pin list; it can be changed there."
        onChange={(event) => setName(event.target.value)}
      />
    </form>
  );
}
