import { useState } from 'react';
import { CidField } from '../../components/cid-field.js';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import type { NameBinding } from '../../api/names.js';
import { ActionFormDialog } from '../../app/action-form-dialog.js';
import { Checkbox } from '../../components/checkbox.js';
import { Cid } from '../../components/cid.js';
import { Facts } from '../../components/section.js';
import { useCidEntry } from '../../components/use-cid-entry.js';
import { usePublishName } from '../../data/names.js';
import { cidFieldMessage } from '../../lib/cid-text.js';
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
  const cid = useCidEntry('published');
  const [pin, setPin] = useState(true);
  const publish = usePublishName();

  const form = {
    read: () => {
      const value = cid.read();
      return target === null || value === null ? null : { name: target.name, cid: value, pin };
    },
    reset: () => {
      cid.reset();
      setPin(true);
    },
  };

  return (
    <ActionFormDialog
      open={target !== null}
      title={`Publish to ${target ? nameLabel(target) : ''}`}
      description="Point this name at new content. Everyone who follows the name gets the new CID."
      submitLabel="Publish"
      busyLabel="Publishing…"
      action={publish}
      form={form}
      onDone={onPublished}
      onClose={onClose}
      describeError={(error) => `Publishing failed: ${cidFieldMessage(error) ?? ''}`}
      retry
    >
      {target ? (
        <Facts
          items={[
            { label: 'Name', value: <Cid value={target.name} what="IPNS name" head={14} tail={8} /> },
            { label: 'Now points at', value: <Cid value={target.value} head={14} tail={8} /> },
          ]}
        />
      ) : null}
      <CidField label="New CID" {...cid.field} />
      <Checkbox
        label="Pin the new CID too"
        hint="Keeps the content from garbage collection."
        checked={pin}
        onChange={(event) => setPin(event.target.checked)}
      />
    </ActionFormDialog>
  );
}
