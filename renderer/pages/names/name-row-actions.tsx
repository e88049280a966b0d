import type { IpnsRecordView } from '../../../shared/api-types.js';
import { Button, IconButton } from '../../components/button.js';
import { nameLabel } from './name-label.js';

export interface NameRowActionsProps {
  name: IpnsRecordView;
  opening: boolean;
  onPublish: () => void;
  onOpen: () => void;
  onDelete: () => void;
}

/** Publish a new CID, open /ipns/<name>, delete: each named after its name. */
export function NameRowActions({ name, opening, onPublish, onOpen, onDelete }: NameRowActionsProps) {
  const label = nameLabel(name);
  return (
    <span className="name-actions">
      <Button size="sm" icon="send" aria-label={`Publish to ${label}`} onClick={onPublish}>
        Publish
      </Button>
      <IconButton icon="external" label={`Open ${label}`} busy={opening} onClick={onOpen} />
      <IconButton icon="trash" variant="danger" label={`Delete ${label}`} onClick={onDelete} />
    </span>
  );
}
