import { useRef, useState } from 'react';
import { SYNC_DEFAULT_IGNORES, type SyncFolderDetail } from '../../../shared/api-types.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useApi } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { Section } from '../../components/section.js';
import { TextAreaField } from '../../components/text-field.js';
import { useToasts } from '../../components/toasts.js';
import { folderName, ignoreText, parseIgnoreText, samePatterns } from '../../lib/sync-folders.js';

export interface IgnorePatternsProps {
  folder: SyncFolderDetail;
  onSaved: () => void;
}

/**
 * The folder's own ignore patterns (view, and edit: saved with sync/ignore, which rescans the folder so
 * they apply at once), its `.pinfoldignore` read-only, and the junk every folder leaves out.
 */
export function IgnorePatterns({ folder, onSaved }: IgnorePatternsProps) {
  const api = useApi();
  const toasts = useToasts();
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const save = useAction((signal, patterns: string[]) => api.sync.setIgnore(folder.id, patterns, signal));
  const editing = draft !== null;

  const close = () => {
    setDraft(null);
    setProblem(null);
    save.clearError();
    // Back to the control that opened the editor (it is rendered again on the next frame).
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const submit = async (text: string) => {
    const parsed = parseIgnoreText(text);
    if (parsed.problems.length > 0) {
      setProblem(parsed.problems.map((entry) => entry.message).join(' '));
      return;
    }
    setProblem(null);
    if (samePatterns(parsed.patterns, folder.ignore)) {
      close();
      return;
    }
    const result = await save.run(parsed.patterns);
    if (!result.ok) return;
    close();
    onSaved();
    toasts.show(`Ignore patterns of ${folderName(folder.path)} saved: the folder is scanned again with them.`);
  };

  return (
    <Section
      title="Ignore patterns"
      description="Files and folders that match are left out of the folder's root (gitignore syntax)."
      actions={
        editing ? null : (
          <Button ref={editButton} onClick={() => setDraft(ignoreText(folder.ignore))}>
            Edit patterns
          </Button>
        )
      }
    >
      <div className="stack">
        {editing ? (
          <form
            className="stack"
            onSubmit={(event) => {
              event.preventDefault();
              void submit(draft);
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
                  close();
                }
              }}
              error={problem ?? save.error}
            />
            <div className="row">
              <Button type="submit" variant="primary" busy={save.pending} busyLabel="Saving…">
                Save patterns
              </Button>
              <Button onClick={close} disabled={save.pending}>
                Cancel
              </Button>
            </div>
          </form>
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
