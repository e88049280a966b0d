import { useTheme } from '../../app/theme.js';
import { ChoiceGroup } from '../../components/choice-group.js';
import { InlineError } from '../../components/inline-error.js';
import { Section } from '../../components/section.js';
import { useSaveSettings, useSettings } from '../../data/settings.js';
import { THEME_CHOICES, type ThemeChoice } from '../../lib/theme.js';

const THEME_LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/**
 * The theme: applied at once; for the owner saved in the data folder too (settings.json's `theme`), which
 * every window of the owner then follows (app/theme-from-service.tsx). Another account keeps it in this
 * browser only.
 */
export function AppearanceSettings() {
  const { choice, setChoice } = useTheme();
  const settings = useSettings();
  const save = useSaveSettings();
  const owner = Boolean(settings.data);
  const pick = (next: ThemeChoice) => {
    setChoice(next);
    if (owner) void save.run({ theme: next });
  };
  return (
    <Section title="Appearance">
      <ChoiceGroup
        legend="Theme"
        options={THEME_CHOICES.map((value) => ({ value, label: THEME_LABELS[value] }))}
        value={choice}
        onChange={pick}
        disabled={save.pending}
        hint={
          owner
            ? 'System follows the light or dark setting of your computer. Kept in the data folder: every window of this service follows it.'
            : 'System follows the light or dark setting of your computer. The choice is kept in this browser.'
        }
      />
      <InlineError message={save.error} />
    </Section>
  );
}
