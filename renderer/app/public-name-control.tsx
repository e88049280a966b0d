import { useState } from 'react';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { InlineError } from '../components/inline-error.js';
import { Switch } from '../components/switch.js';
import { useToasts } from '../components/toasts.js';
import { useSetNamePublic } from '../data/names.js';

export interface PublicNameControlProps {
  /** The IPNS name. */
  name: string;
  /** What the window calls it (an alias, a folder's name): in the switch's accessible name and the dialog. */
  label: string;
  isPublic: boolean;
  /** Shows "Public" or "Private" beside the switch (where no column header says what it is). */
  withText?: boolean;
}

/**
 * The switch that makes a name public (contract section 11, `name/public`): its records then go to the
 * IPFS network through the routing endpoints. Turning it on first asks, saying what that reveals (the
 * content root the name points at); turning it off does not ask. Names page rows and a sync folder's page,
 * which both show the name as the service has it after the change (the request cache: data/names.ts).
 */
export function PublicNameControl({ name, label, isPublic, withText = false }: PublicNameControlProps) {
  const toasts = useToasts();
  const [confirming, setConfirming] = useState(false);
  const change = useSetNamePublic();

  const apply = async (on: boolean): Promise<boolean> => {
    const result = await change.run({ name, on });
    if (!result.ok) return false;
    toasts.show(
      on
        ? `${label} is public: its records go to the IPFS network now and with every change.`
        : `${label} is private again: no new record goes to the network (those already sent stay there until they expire).`,
    );
    return true;
  };

  return (
    <span className="public-name-control">
      <Switch
        checked={isPublic}
        label={`Public on the IPFS network: ${label}`}
        text={withText ? (isPublic ? 'Public' : 'Private') : undefined}
        busy={change.pending && !confirming}
        onChange={(next) => {
          change.clearError();
          if (next) setConfirming(true);
          else void apply(false);
        }}
      />
      {confirming ? null : <InlineError message={change.error} />}
      <ConfirmDialog
        open={confirming}
        title={`Make ${label} public?`}
        confirmLabel="Make public"
        busyLabel="Publishing…"
        tone="primary"
        busy={change.pending}
        error={change.error}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          void apply(true).then((done) => {
            if (done) setConfirming(false);
          });
        }}
      >
        <p>
          Its records go to the IPFS network through the routing endpoints of Settings, now and with every change, so the name resolves from anywhere, not only
          here.
        </p>
        <p>
          This reveals the content it points at: anyone who knows the name learns its root CID, and can read the content wherever it is served by that CID. Make
          a name public only when its content is meant to be seen.
        </p>
        <p className="muted">
          Making it private later stops new records; those already sent stay with the routing endpoints until they expire there (two days on the public DHT).
        </p>
      </ConfirmDialog>
    </span>
  );
}
