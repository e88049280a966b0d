import { useState } from 'react';
import type { ServiceFacts } from '../../../shared/api-types.js';
import type { GarbageCollection } from '../../api/service.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { CopyableFact } from '../../components/copyable-fact.js';
import { InlineError } from '../../components/inline-error.js';
import { RelativeTime } from '../../components/relative-time.js';
import { Facts, Section } from '../../components/section.js';
import { useCollectGarbage, useServiceFacts } from '../../data/service.js';
import { formatCount, formatDuration } from '../../lib/format.js';
import { desktopBridge } from '../../desktop-bridge.js';
import { useSettings } from '../../data/settings.js';
import { ServiceSettingsForms } from './service-settings-forms.js';

/** The service's facts and "Run garbage collection": both for the owner account only (others get 403). */
export function ServiceSettings() {
  const facts = useServiceFacts();

  if (facts.data === null) {
    return (
      <Section title="Service">
        <p className="muted">The service's details and garbage collection are shown to the owner account only.</p>
      </Section>
    );
  }
  return (
    <>
      <Section title="Service" description="The Pinfold service this window talks to.">
        {facts.error ? <InlineError message={facts.error} onRetry={facts.reload} /> : null}
        {facts.data ? (
          <ServiceFactList facts={facts.data} />
        ) : facts.error ? null : (
          <p className="muted" role="status">
            {facts.waiting ? 'Waiting for the Pinfold service…' : 'Loading…'}
          </p>
        )}
      </Section>
      {facts.data ? <GarbageCollectionSection facts={facts.data} /> : null}
      {facts.data ? <OwnerSettings /> : null}
    </>
  );
}

/** The settings of settings.json, once the facts said this is the owner. */
function OwnerSettings() {
  const settings = useSettings();
  return <ServiceSettingsForms view={settings.data ?? undefined} error={settings.error} reload={settings.reload} inDesktopApp={desktopBridge() !== null} />;
}

function ServiceFactList({ facts }: { facts: ServiceFacts }) {
  return (
    <Facts
      items={[
        { label: 'Version', value: facts.version, testId: 'service-version' },
        {
          label: 'Data folder',
          testId: 'service-data-dir',
          value: <CopyableFact value={facts.data_dir} what="data folder path" />,
        },
        {
          label: 'Listening at',
          testId: 'service-url',
          value: <CopyableFact value={facts.url} what="service URL" />,
        },
        {
          label: 'Garbage collection',
          testId: 'service-gc',
          value: `Every ${formatDuration(facts.gc_interval_seconds)}; new blocks are kept for ${formatDuration(facts.gc_grace_seconds)}`,
        },
        { label: 'CID profile', value: <code>{facts.cid_profile}</code>, testId: 'service-cid-profile' },
        {
          label: 'Public gateway',
          value: facts.public_gateway ? 'On: /ipfs and /ipns answer without a key' : 'Off: /ipfs and /ipns need a key',
          testId: 'service-public-gateway',
        },
        { label: 'Running since', value: <RelativeTime unixSeconds={facts.started_at} />, testId: 'service-started' },
      ]}
    />
  );
}

function GarbageCollectionSection({ facts }: { facts: ServiceFacts }) {
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<{ gc: GarbageCollection; at: number } | null>(null);
  const collect = useCollectGarbage();

  const run = async () => {
    const outcome = await collect.run();
    if (outcome.ok) {
      setResult({ gc: outcome.value, at: Math.floor(Date.now() / 1000) });
      setConfirming(false);
    }
  };

  return (
    <Section
      title="Garbage collection"
      description={`Runs by itself every ${formatDuration(facts.gc_interval_seconds)}. Run it now to free the space of content you unpinned.`}
      actions={
        <Button
          onClick={() => {
            collect.clearError();
            setConfirming(true);
          }}
        >
          Run garbage collection
        </Button>
      }
    >
      <p className="muted" role="status" data-testid="gc-result">
        {result ? (
          <>
            Last run <RelativeTime unixSeconds={result.at} />: {describeCollection(result.gc)}
          </>
        ) : (
          'Not run from this window yet.'
        )}
      </p>
      <ConfirmDialog
        open={confirming}
        title="Run garbage collection now?"
        confirmLabel="Run now"
        busyLabel="Collecting…"
        tone="primary"
        busy={collect.pending}
        error={collect.error}
        onConfirm={() => void run()}
        onCancel={() => setConfirming(false)}
      >
        <p>Unpinned content leaves the pin list, and every block that no pin reaches is deleted for good.</p>
        <p>
          {facts.gc_grace_seconds > 0
            ? `Pinned content is not touched, and blocks written in the last ${formatDuration(facts.gc_grace_seconds)} are kept, so a recent upload can still be pinned.`
            : 'Pinned content is not touched. This service keeps no grace period: an upload that is not pinned yet is deleted too.'}
        </p>
      </ConfirmDialog>
    </Section>
  );
}

export function describeCollection(gc: GarbageCollection): string {
  const pins = `${formatCount(gc.pins_removed)} unpinned ${gc.pins_removed === 1 ? 'pin' : 'pins'} removed`;
  const blocks = `${formatCount(gc.blocks_deleted)} ${gc.blocks_deleted === 1 ? 'block' : 'blocks'} deleted`;
  return `${pins}, ${blocks}.`;
}
