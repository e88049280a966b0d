import { ChoiceGroup } from '../../components/choice-group.js';
import { Page } from '../../components/page.js';
import { Section } from '../../components/section.js';
import { useTheme } from '../../app/theme.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { THEME_CHOICES, type ThemeChoice } from '../../lib/theme.js';
import { DesktopSettings } from './desktop-settings.js';
import { ServiceSettings } from './service-settings.js';
import './settings.css';

const THEME_LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** The look of the window, the service's facts and garbage collection (owner), and the desktop app's own settings. */
export function SettingsPage() {
  const { choice, setChoice } = useTheme();
  const bridge = desktopBridge();
  return (
    <Page title="Settings" description="How this window looks, and how the Pinfold service on this computer runs.">
      <Section title="Appearance">
        <ChoiceGroup
          legend="Theme"
          options={THEME_CHOICES.map((value) => ({ value, label: THEME_LABELS[value] }))}
          value={choice}
          onChange={setChoice}
          hint="System follows the light or dark setting of your computer. The choice is kept in this browser."
        />
      </Section>
      {bridge ? <DesktopSettings bridge={bridge} /> : null}
      <ServiceSettings />
    </Page>
  );
}
