import { Page } from '../../components/page.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { AppearanceSettings } from './appearance-settings.js';
import { DesktopSettings } from './desktop-settings.js';
import { ServiceSettings } from './service-settings.js';
import './settings.css';

/** The look of the window, the desktop app's own settings, the service's facts, garbage collection and settings (owner). */
export function SettingsPage() {
  const bridge = desktopBridge();
  return (
    <Page title="Settings" description="How this window looks, and how the Pinfold service on this computer runs.">
      <AppearanceSettings />
      {bridge ? <DesktopSettings bridge={bridge} /> : null}
      <ServiceSettings />
    </Page>
  );
}
