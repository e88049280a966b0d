import { useState } from 'react';
import { CidField } from '../../components/cid-field.js';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import type { NameBinding } from '../../api/names.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useApi } from '../../app/session.js';
import { Checkbox } from '../../components/checkbox.js';
import { Cid } from '../../components/cid.js';
import { FormDialog } from '../../components/form-dialog.js';
import { Facts } from '../../components/section.js';
import { cidFieldMessage, readCidInput } from '../../lib/cid-text.js';
import { nameLabel } from './name-label.js';

export interface PublishNameDialogProps {
  /** The name to publish to; null when closed. */
  target: IpnsRecordView | null;
  onClose: () => void;
  onPublished: (name: NameBinding) => void;
}

/**
 * Publish: point a name at a new CID (the record's sequence goes up by one). A failure says why, in the
 * service's words, and offers Retry; the dialog keeps what was typed.
 */
export function PublishNameDialog({ target, onClose, onPublished }: PublishNameDialogProps) {
  const api = useApi();
  const [cidText, setCidText] = useState('');
  const [pin, setPin] = useState(true);
  const [cidError, setCidError] = useState<string | null>(null);
  const publish = useAction((signal, name: string, cid: string, pinned: boolean) => api.names.publish({ name, cid, pin: pinned }, signal));

  const reset = () => {
    setCidText('');
    setPin(true);
    setCidError(null);
    publish.clearError();
  };

  const submit = async () => {
    if (!target) return;
    const input = readCidInput(cidText, 'published');
    if ('problem' in input) {
      setCidError(input.problem);
      return;
    }
    setCidError(null);
    const result = await publish.run(target.name, input.cid, pin);
    if (!result.ok) return;
    reset();
    onPublished(result.value);
  };

  return (
    <FormDialog
      open={target !== null}
      title={`Publish to ${target ? nameLabel(target) : ''}`}
      description="Point this name at new content. Everyone who follows the name gets the new CID."
      submitLabel="Publish"
      busyLabel="Publishing…"
      busy={publish.pending}
      error={publish.error ? `Publishing failed: ${cidFieldMessage(publish.error) ?? ''}` : null}
      onRetry={() => void submit()}
      onSubmit={() => void submit()}
      onCancel={() => {
        reset();
        onClose();
      }}
    >
      {target ? (
        <Facts
          items={[
            { label: 'Name', value: <Cid value={target.name} what="IPNS name" head={14} tail={8} /> },
            { label: 'Now points at', value: <Cid value={target.value} head={14} tail={8} /> },
          ]}
        />
      ) : null}
      <CidField
        label="New CID"
        value={cidText}
        onValueChange={(text) => {
          setCidText(text);
          if (cidError) setCidError(null);
        }}
        error={cidError}
      />
      <Checkbox
        label="Pin the new CID too"
        hint="Keeps the content from garbage collection."
        checked={pin}
        onChange={(event) => setPin(event.target.checked)}
      />
    </FormDialog>
  );
}
