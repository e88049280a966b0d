import type { ReactNode } from 'react';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import { Button, IconButton } from '../../components/button.js';
import { nameLabel } from './name-label.js';

export interface NameRowActionsProps {
  name: IpnsRecordView;
  /** The Open control (OpenContentControl) of /ipns/<name>. */
  open: ReactNode;
  onPublish: () => void;
  onDelete: () => void;
}

/** Publish a new CID, open /ipns/<name>, delete: each named after its name. */
export function NameRowActions({ name, open, onPublish, onDelete }: NameRowActionsProps) {
  const label = nameLabel(name);
  return (
    <span className="name-actions">
      <Button size="sm" icon="send" aria-label={`Publish to ${label}`} onClick={onPublish}>
        Publish
      </Button>
      {open}
      <IconButton icon="trash" variant="danger" label={`Delete ${label}`} onClick={onDelete} />
    </span>
  );
}
