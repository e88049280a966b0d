import { useState } from 'react';
import type { SyncFolderDetail } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { ChoiceGroup } from '../../components/choice-group.js';
import { InlineError } from '../../components/inline-error.js';
import { TextField } from '../../components/text-field.js';
import { useToasts } from '../../components/toasts.js';
import { useSetRetention } from '../../data/sync-versions.js';
import { describeHistoryBytes, describeRetention, retentionChoice, retentionText, type RetentionChoice } from '../../lib/sync-history.js';

/** The retention policy in words, with a way to change it (the service checks custom tiers: its 400 is shown here). */
export function RetentionPolicy({ folder }: { folder: SyncFolderDetail }) {
  const [editing, setEditing] = useState(false);
  return (
    <div className="retention">
      <div className="retention-summary">
        <p>
          <strong>Kept:</strong> {describeRetention(folder.retention)} <span className="muted">({folder.retention})</span>
        </p>
        <p className="muted" data-testid="history-bytes">
          {describeHistoryBytes(folder.history_bytes)}
        </p>
      </div>
      {editing ? (
        <RetentionForm folder={folder} onClose={() => setEditing(false)} />
      ) : (
        <Button variant="secondary" size="sm" icon="edit" onClick={() => setEditing(true)}>
          Change what is kept
        </Button>
      )}
    </div>
  );
}

/** The choices of a policy, starting from the folder's; the folder's page loads again after a save (the request cache). */
function RetentionForm({ folder, onClose }: { folder: SyncFolderDetail; onClose: () => void }) {
  const toasts = useToasts();
  const [choice, setChoice] = useState<RetentionChoice>(() => retentionChoice(folder.retention));
  const [custom, setCustom] = useState(() => (retentionChoice(folder.retention) === 'custom' ? folder.retention : ''));
  const save = useSetRetention();

  const submit = () => {
    void save.run({ id: folder.id, keep: retentionText(choice, custom) }).then((result) => {
      if (!result.ok) return;
      onClose();
      toasts.show(`History now keeps: ${describeRetention(result.value)}`);
    });
  };

  return (
    <form
      className="stack retention-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <ChoiceGroup<RetentionChoice>
        legend="Versions to keep"
        value={choice}
        onChange={(value) => {
          setChoice(value);
          save.clearError();
        }}
        options={[
          { value: 'default', label: 'Default' },
          { value: 'all', label: 'All' },
          { value: 'none', label: 'Only the current one' },
          { value: 'custom', label: 'Custom' },
        ]}
        hint={
          choice === 'custom'
            ? undefined
            : choice === 'none'
              ? 'Older versions are let go now; garbage collection then frees what only they held.'
              : describeRetention(retentionText(choice, ''))
        }
      />
      {choice === 'custom' ? (
        <TextField
          label="Policy"
          value={custom}
          error={save.error}
          hint="Tiers of age:interval, such as 24h:all,30d:1d,1y:1w (every version of a day, one a day for 30 days, one a week for a year)."
          spellCheck={false}
          autoComplete="off"
          className="mono"
          onChange={(event) => {
            setCustom(event.target.value);
            save.clearError();
          }}
        />
      ) : null}
      {choice !== 'custom' ? <InlineError message={save.error} /> : null}
      <div className="row">
        <Button type="submit" variant="primary" busy={save.pending} busyLabel="Saving…">
          Save
        </Button>
        <Button variant="secondary" disabled={save.pending} onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
