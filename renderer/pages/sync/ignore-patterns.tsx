import { useRef, useState } from 'react';
import { SYNC_DEFAULT_IGNORES, type SyncFolderDetail } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { Section } from '../../components/section.js';
import { TextAreaField } from '../../components/text-field.js';
import { useToasts } from '../../components/toasts.js';
import { useSetIgnorePatterns } from '../../data/sync-actions.js';
import { folderName, ignoreText, parseIgnoreText, samePatterns } from '../../lib/sync-folders.js';

/**
 * The folder's own ignore patterns (view, and edit: saved with sync/ignore, which rescans the folder so
 * they apply at once), its `.pinfoldignore` read-only, and the junk every folder leaves out.
 */
export function IgnorePatterns({ folder }: { folder: SyncFolderDetail }) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    setEditing(false);
    // Back to the control that opened the editor (it is rendered again on the next frame).
    requestAnimationFrame(() => editButton.current?.focus());
  };

  return (
    <Section
      title="Ignore patterns"
      description="Files and folders that match are left out of the folder's root (gitignore syntax)."
      actions={
        editing ? null : (
          <Button ref={editButton} onClick={() => setEditing(true)}>
            Edit patterns
          </Button>
        )
      }
    >
      <div className="stack">
        {editing ? (
          <IgnoreEditor folder={folder} onClose={close} />
        ) : folder.ignore.length > 0 ? (
          <ul className="pattern-list" aria-label="Patterns of this folder">
            {folder.ignore.map((pattern, index) => (
              <li key={`${index}:${pattern}`}>
                <code>{pattern}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">This folder has no patterns of its own. Edit patterns to leave out build output, logs or caches.</p>
        )}
        <IgnoreFile folder={folder} />
        <p className="muted small">
          Always left out:{' '}
          {SYNC_DEFAULT_IGNORES.map((pattern, index) => (
            <span key={pattern}>
              {index > 0 ? ', ' : ''}
              <code>{pattern}</code>
            </span>
          ))}
          .
        </p>
      </div>
    </Section>
  );
}

/** The patterns as text, checked line by line before they are sent; the folder's page loads again after a save (the request cache). */
function IgnoreEditor({ folder, onClose }: { folder: SyncFolderDetail; onClose: () => void }) {
  const toasts = useToasts();
  const [draft, setDraft] = useState(() => ignoreText(folder.ignore));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSetIgnorePatterns();

  const submit = async () => {
    const parsed = parseIgnoreText(draft);
    if (parsed.problems.length > 0) {
      setProblem(parsed.problems.map((entry) => entry.message).join(' '));
      return;
    }
    setProblem(null);
    if (samePatterns(parsed.patterns, folder.ignore)) {
      onClose();
      return;
    }
    const result = await save.run({ id: folder.id, patterns: parsed.patterns });
    if (!result.ok) return;
    onClose();
    toasts.show(`Ignore patterns of ${folderName(folder.path)} saved: the folder is scanned again with them.`);
  };

  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextAreaField
        label="Patterns of this folder"
        hint="One pattern a line, such as *.log, build/ or !keep.log. Saving scans the folder again: newly ignored files leave its root, and files no longer ignored join it."
        value={draft}
        rows={Math.min(Math.max(folder.ignore.length + 2, 5), 16)}
        spellCheck={false}
        autoFocus
        onChange={(event) => {
          setDraft(event.target.value);
          setProblem(null);
          save.clearError();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && !save.pending) {
            event.preventDefault();
            onClose();
          }
        }}
        error={problem ?? save.error}
      />
      <div className="row">
        <Button type="submit" variant="primary" busy={save.pending} busyLabel="Saving…">
          Save patterns
        </Button>
        <Button onClick={onClose} disabled={save.pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function IgnoreFile({ folder }: { folder: SyncFolderDetail }) {
  if (folder.pinfoldignore === null) {
    return (
      <p className="muted">
        No <code>.pinfoldignore</code> file in this folder. Patterns in one (gitignore syntax, in any subfolder too) travel with the folder.
      </p>
    );
  }
  return (
    <div className="stack-tight">
      <h3>
        <code>.pinfoldignore</code> <span className="muted small normal">(read-only here: edit the file itself)</span>
      </h3>
      <div className="ignore-file" role="region" aria-label=".pinfoldignore" tabIndex={0}>
        <pre data-testid="pinfoldignore">{folder.pinfoldignore === '' ? ' ' : folder.pinfoldignore}</pre>
      </div>
      {folder.pinfoldignore_truncated ? <p className="muted small">Only its first 64 KiB are shown.</p> : null}
    </div>
  );
}
