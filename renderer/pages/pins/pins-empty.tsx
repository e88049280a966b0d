import { Link } from 'wouter';
import { Button } from '../../components/button.js';
import { EmptyState } from '../../components/empty-state.js';

export interface PinsEmptyProps {
  /** A search or a status filter narrows the list. */
  filtered: boolean;
  /** What was searched for, in words (describePinView). */
  searched: string;
  onClear: () => void;
  onAdd: () => void;
}

/** What an empty pin table says: how to widen a search that matched nothing, or how to pin the first content. */
export function PinsEmpty({ filtered, searched, onClear, onAdd }: PinsEmptyProps) {
  if (filtered) {
    return (
      <EmptyState icon="search" title="No pins match" actions={<Button onClick={onClear}>Clear search and filter</Button>}>
        {searched} Try part of the name, or the whole CID.
      </EmptyState>
    );
  }
  return (
    <EmptyState
      icon="pins"
      title="No pins yet"
      actions={
        <>
          <Button variant="primary" icon="plus" onClick={onAdd}>
            Add pin
          </Button>
          <Link href="/files" className="button button-secondary">
            Upload on the Files page
          </Link>
        </>
      }
    >
      Pin content you know by its CID, or upload files and pin them. Pinned content stays when garbage collection runs.
    </EmptyState>
  );
}
