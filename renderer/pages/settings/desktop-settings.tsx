import { useEffect, useState } from 'react';
import type { PinfoldBridge } from '../../../shared/preload-bridge.js';
import { Checkbox } from '../../components/checkbox.js';
import { InlineError } from '../../components/inline-error.js';
import { Facts, Section } from '../../components/section.js';
import { describeError } from '../../lib/messages.js';

/**
 * The desktop app's own settings, through the bridge: launch at login and the port the window's
 * service listens on. Each shows only when the desktop app offers it.
 */
export function DesktopSettings({ bridge }: { bridge: PinfoldBridge }) {
  const [launchAtLogin, setLaunchAtLogin] = useState<boolean | null>(null);
  const [version, setVersion] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    bridge.getLaunchAtLogin?.().then(
      (on) => current && setLaunchAtLogin(on),
      (failure: unknown) => current && setError(`The desktop app could not say whether it starts at login: ${describeError(failure)}`),
    );
    bridge.appVersion?.().then(
      (value) => current && setVersion(value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [bridge]);

  const change = async (on: boolean) => {
    if (!bridge.setLaunchAtLogin) return;
    setBusy(true);
    setError(null);
    try {
      await bridge.setLaunchAtLogin(on);
      setLaunchAtLogin(on);
    } catch (failure) {
      setError(`The desktop app could not change this: ${describeError(failure)}`);
    } finally {
      setBusy(false);
    }
  };

  const port = window.location.port || (window.location.protocol === 'https:' ? '443' : '80');
  return (
    <Section title="Desktop app">
      <div className="stack">
        {'getLaunchAtLogin' in bridge ? (
          <Checkbox
            label="Start Pinfold when I log in"
            hint="Keeps your sync folders current from the moment the computer starts."
            checked={launchAtLogin ?? false}
            disabled={launchAtLogin === null || busy || !bridge.setLaunchAtLogin}
            onChange={(event) => void change(event.target.checked)}
          />
        ) : null}
        <InlineError message={error} />
        <Facts
          items={[
            { label: 'Port', value: <code>{port}</code>, testId: 'desktop-port' },
            ...(version ? [{ label: 'App version', value: version, testId: 'desktop-version' }] : []),
          ]}
        />
      </div>
    </Section>
  );
}
