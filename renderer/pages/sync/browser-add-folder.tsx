import { useState, type Ref } from 'react';
import { Link } from 'wouter';
import type { SyncAddResult } from '../../../shared/api-types.js';
import { Notice } from '../../components/banner.js';
import { Button } from '../../components/button.js';
import { CopyButton } from '../../components/copy-button.js';
import { Section } from '../../components/section.js';
import { TextField } from '../../components/text-field.js';
import { useAddSyncFolder } from '../../data/sync-actions.js';
import { addProblem, syncAddCommand } from '../../lib/sync-folders.js';

export interface BrowserAddFolderProps {
  /** The data folder `pinfold sync add` must name; left out while unknown. */
  dataDir: string | undefined;
  /** The name of a folder just dropped on the page, which a browser cannot locate. */
  dropped: string | null;
  onAdded: (added: SyncAddResult) => void;
  /** The path field, which "Add folder…" focuses. */
  pathRef: Ref<HTMLInputElement>;
}

/**
 * Adding a folder from a plain browser, which cannot learn where a folder is on this computer: said in
 * one sentence, then the ways that work: its path typed in, the `pinfold sync add` command, or a one-time
 * upload on the Files page.
 */
export function BrowserAddFolder({ dataDir, dropped, onAdded, pathRef }: BrowserAddFolderProps) {
  const [path, setPath] = useState('');
  const [missing, setMissing] = useState(false);
  const add = useAddSyncFolder();
  const command = syncAddCommand(dataDir, dropped ?? 'folder');

  const submit = async () => {
    const folder = path.trim();
    setMissing(folder === '');
    if (folder === '') return;
    const result = await add.run(folder);
    if (!result.ok) return;
    setPath('');
    onAdded(result.value);
  };

  return (
    <Section
      title="Add a folder"
      description="A browser cannot tell Pinfold where a folder is on your computer, so it cannot start syncing a dropped or chosen one."
    >
      <div className="stack">
        {dropped ? (
          <Notice role="status">
            You dropped <strong>{dropped}</strong>: type where it is below, use the command, or upload it once on the Files page.
          </Notice>
        ) : null}
        <form
          className="add-path-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <TextField
            ref={pathRef}
            label="Folder path"
            placeholder="/home/you/Documents/site"
            hint="Its full path on this computer. Pinfold pins it, publishes it under an IPNS name and follows its changes."
            value={path}
            onChange={(event) => {
              setPath(event.target.value);
              setMissing(false);
              add.clearError();
            }}
            error={missing ? "Type the folder's full path." : add.error && addProblem(add.error)}
            spellCheck={false}
            autoComplete="off"
          />
          <Button type="submit" variant="primary" busy={add.pending} busyLabel="Adding…">
            Sync this folder
          </Button>
        </form>
        <div className="stack-tight">
          <p>Or from a terminal on this computer:</p>
          <div className="command">
            <code data-testid="sync-add-command">{command}</code>
            <CopyButton value={command} what="command" />
          </div>
        </div>
        <p>
          Or <Link href="/files">upload a copy on the Files page</Link>: it is pinned once, and later changes to the folder are not followed.
        </p>
      </div>
    </Section>
  );
}
