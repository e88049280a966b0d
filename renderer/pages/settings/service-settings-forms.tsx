import type { SettingsView } from '../../../shared/api-types.js';
import { InlineError } from '../../components/inline-error.js';
import { Section } from '../../components/section.js';
import type { SettingName } from './setting-drafts.js';
import type { SettingFieldSpec } from './setting-field.js';
import { SettingsGroup } from './settings-group.js';

type Fields = Partial<Record<SettingName, SettingFieldSpec>>;

const STORAGE: Fields = {
  cid_profile: {
    kind: 'choice',
    label: 'CID profile',
    about: 'How new uploads, folder edits and sync batches are laid out, by Kubo’s profile names. Content already stored keeps its CIDs.',
    options: [
      { value: 'unixfs-v1-2025', label: 'unixfs-v1-2025 (CIDv1, raw leaves, 1 MiB chunks)' },
      { value: 'unixfs-v0-2015', label: 'unixfs-v0-2015 (CIDv0, as older Kubo)' },
    ],
  },
  gc_interval_seconds: {
    kind: 'number',
    label: 'Garbage collection every (seconds)',
    about: 'From 1 to 2147483. The next collection comes that long after a change.',
  },
  gc_grace_seconds: {
    kind: 'number',
    label: 'Keep new blocks for (seconds)',
    about: 'From 0 to 2147483: a recent upload that is not pinned yet survives a collection that long.',
  },
};

const NETWORK: Fields = {
  offline: {
    kind: 'switch',
    label: 'Work offline',
    about: 'Makes no request to the IPFS network at all: pins of content that is not here wait, and names are not published.',
  },
  fetch_from: {
    kind: 'list',
    label: 'Fetch from these gateways',
    about: 'Trustless gateways (http or https), one a line. Providers found through routing are asked too.',
    rows: 3,
  },
  routing: {
    kind: 'list',
    label: 'Routing endpoints',
    about: 'Delegated Routing V1 endpoints, one a line: they say who holds a CID, and carry IPNS names.',
    rows: 2,
  },
};

const SERVER: Fields = {
  port: { kind: 'number', label: 'Port', about: 'From 0 to 65535; 0 takes a free port at each start. Applies at the next start.' },
  public_gateway: {
    kind: 'switch',
    label: 'Public gateway',
    about: '/ipfs and /ipns answer without a key, and the Delegated Routing API is served. Applies at the next start.',
  },
};

/**
 * The service's settings (settings.json, `GET|POST /api/v0/settings`), in three forms: storage, the
 * IPFS network, the server. The owner's only: another account never gets here (the facts said 403).
 */
export function ServiceSettingsForms({
  view,
  error,
  reload,
  inDesktopApp,
}: {
  view: SettingsView | undefined;
  error: string | null;
  reload: () => void;
  inDesktopApp: boolean;
}) {
  if (!view) {
    return <Section title="Service settings">{error ? <InlineError message={error} onRetry={reload} /> : <p className="muted">Loading…</p>}</Section>;
  }
  // The bridge offers no restart of the service alone: the app's next start applies what waits.
  const restartHow = inDesktopApp ? 'Quit and reopen Pinfold to apply it.' : 'It applies at the next start of pinfold serve.';
  const common = { view, restartHow };
  return (
    <>
      <SettingsGroup
        {...common}
        title="Storage"
        description="How new content is laid out, and how often unpinned content is deleted. Applied at once."
        fields={STORAGE}
        saveLabel="Save storage settings"
      />
      <SettingsGroup
        {...common}
        title="IPFS network"
        description="Where Pinfold fetches content it does not hold, such as a CID someone shared with you, and finds who has it. Every block fetched is checked against its CID before it is kept."
        fields={NETWORK}
        saveLabel="Save network settings"
      />
      <SettingsGroup
        {...common}
        title="Server"
        description="Where this service listens, and whether its gateway is public. Read once, when the service starts."
        fields={SERVER}
        saveLabel="Save server settings"
      />
    </>
  );
}
