import { useState } from 'react';
import type { NetworkSettingsValues, NetworkSettingsView } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { Checkbox } from '../../components/checkbox.js';
import { InlineError } from '../../components/inline-error.js';
import { Section } from '../../components/section.js';
import { TextAreaField } from '../../components/text-field.js';
import { useToasts } from '../../components/toasts.js';
import { useNetworkSettings, useSaveNetworkSettings } from '../../data/service.js';

/** The form's text: one URL a line, as a person types a list. */
interface Draft {
  fetchFrom: string;
  routing: string;
  offline: boolean;
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

function draftOf(values: NetworkSettingsValues): Draft {
  return { fetchFrom: values.fetch_from.join('\n'), routing: values.routing.join('\n'), offline: values.offline };
}

/** What the draft changes of the saved settings: only the fields that differ are sent. */
function changeOf(draft: Draft, saved: NetworkSettingsValues): Partial<NetworkSettingsValues> {
  const change: Partial<NetworkSettingsValues> = {};
  if (lines(draft.fetchFrom).join('\n') !== saved.fetch_from.join('\n')) change.fetch_from = lines(draft.fetchFrom);
  if (lines(draft.routing).join('\n') !== saved.routing.join('\n')) change.routing = lines(draft.routing);
  if (draft.offline !== saved.offline) change.offline = draft.offline;
  return change;
}

/** A value a command-line flag pins for this run: said under its field, with what the run uses. */
function pinnedNote(flag: string, inUse: string): string {
  return `Set by ${flag} on the command line for this run (in use: ${inUse}). What you save here applies when the service starts without it.`;
}

/**
 * Where the service reaches the IPFS network (issue "Pinfold on the IPFS network"): the trustless gateways
 * it fetches blocks from, the routing endpoints it asks for providers and names, and offline. Saved in
 * the data folder and applied at once; a flag on the command line wins for its run, and the form says so.
 */
export function NetworkSettings() {
  const toasts = useToasts();
  const settings = useNetworkSettings();
  // null until the user edits: the form then shows what is saved.
  const [edited, setDraft] = useState<Draft | null>(null);
  const save = useSaveNetworkSettings();

  const view: NetworkSettingsView | undefined = settings.data;
  if (!view) {
    return (
      <Section title="IPFS network">
        {settings.error ? <InlineError message={settings.error} onRetry={settings.reload} /> : <p className="muted">Loading…</p>}
      </Section>
    );
  }
  const draft = edited ?? draftOf(view.saved);
  const change = changeOf(draft, view.saved);
  const changed = Object.keys(change).length > 0;
  const submit = async () => {
    const outcome = await save.run(change);
    // The cache holds the service's answer now (data/service.ts): the form shows it.
    if (!outcome.ok) return;
    setDraft(null);
    toasts.show('Network settings saved and applied.');
  };

  return (
    <Section
      title="IPFS network"
      description="Where Pinfold fetches content it does not hold, such as a CID someone shared with you, and finds who has it. Every block fetched is checked against its CID before it is kept."
    >
      <form
        className="stack network-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Checkbox
          label="Work offline"
          hint={
            view.pinned.offline
              ? pinnedNote('--offline', view.offline ? 'offline' : 'online')
              : 'Makes no request to the IPFS network at all: pins of content that is not here wait, and names are not published.'
          }
          checked={draft.offline}
          onChange={(event) => setDraft({ ...draft, offline: event.target.checked })}
        />
        <TextAreaField
          label="Fetch from these gateways"
          hint={
            view.pinned.fetch_from
              ? pinnedNote('--fetch-from', view.fetch_from.join(', ') || 'none')
              : 'Trustless gateways (http or https), one a line. Providers found through routing are asked too.'
          }
          rows={3}
          spellCheck={false}
          value={draft.fetchFrom}
          onChange={(event) => setDraft({ ...draft, fetchFrom: event.target.value })}
        />
        <TextAreaField
          label="Routing endpoints"
          hint={
            view.pinned.routing
              ? pinnedNote('--routing', view.routing.join(', ') || 'none')
              : 'Delegated Routing V1 endpoints, one a line: they say who holds a CID, and carry IPNS names.'
          }
          rows={2}
          spellCheck={false}
          value={draft.routing}
          onChange={(event) => setDraft({ ...draft, routing: event.target.value })}
        />
        <InlineError message={save.error} />
        <div className="network-actions">
          <Button type="submit" variant="primary" busy={save.pending} disabled={!changed}>
            Save network settings
          </Button>
          <Button type="button" disabled={!changed || save.pending} onClick={() => setDraft(null)}>
            Discard changes
          </Button>
        </div>
      </form>
    </Section>
  );
}
