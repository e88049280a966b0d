import { useState, type ReactNode } from 'react';
import type { SettingsView } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { InlineError } from '../../components/inline-error.js';
import { Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { useSaveSettings } from '../../data/settings.js';
import { changeOf, fieldValueOf, type Draft, type SettingKind, type SettingName } from './setting-drafts.js';
import { SettingField, type SettingFieldSpec } from './setting-field.js';

export interface SettingsGroupProps {
  title: string;
  description: ReactNode;
  /** The group's settings, in the order shown. */
  fields: Partial<Record<SettingName, SettingFieldSpec>>;
  saveLabel: string;
  view: SettingsView;
  /** Where a restart applies a saved value: the desktop app's next start, or pinfold serve's. */
  restartHow: string;
}

/**
 * A few settings in one form with its own Save: only what changed is sent, the service's answer is what
 * the form shows next, and a refused value gets the service's reason beside its field (nothing saved).
 */
export function SettingsGroup({ title, description, fields, saveLabel, view, restartHow }: SettingsGroupProps) {
  const toasts = useToasts();
  const save = useSaveSettings();
  // Only the fields the user edited; the others show what is saved.
  const [draft, setDraft] = useState<Draft>({});
  const names = Object.keys(fields) as SettingName[];
  const kinds = Object.fromEntries(names.map((name) => [name, fields[name]?.kind])) as Partial<Record<SettingName, SettingKind>>;
  const change = changeOf(draft, kinds, (name) => view.settings[name].saved);
  const changed = Object.keys(change).length > 0;
  const fieldError = (name: SettingName) => (save.errorParam === name ? save.error : null);
  const otherError = save.errorParam !== null && names.includes(save.errorParam as SettingName) ? null : save.error;

  const submit = async () => {
    const outcome = await save.run(change);
    if (!outcome.ok) return;
    setDraft({});
    toasts.show(outcome.value.restart_required ? `${title}: saved. Some wait for a restart.` : `${title}: saved and applied.`);
  };

  return (
    <Section title={title} description={description}>
      <form
        className="stack settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {names.map((name) => {
          const spec = fields[name];
          if (!spec) return null;
          return (
            <SettingField
              key={name}
              spec={spec}
              setting={view.settings[name]}
              value={draft[name] ?? fieldValueOf(view.settings[name].saved)}
              onChange={(value) => setDraft({ ...draft, [name]: value })}
              error={fieldError(name)}
              restartHow={restartHow}
            />
          );
        })}
        <InlineError message={otherError} />
        <div className="settings-actions">
          <Button type="submit" variant="primary" busy={save.pending} disabled={!changed}>
            {saveLabel}
          </Button>
          <Button
            type="button"
            disabled={Object.keys(draft).length === 0 || save.pending}
            onClick={() => {
              setDraft({});
              save.clearError();
            }}
          >
            Discard changes
          </Button>
        </div>
      </form>
    </Section>
  );
}
