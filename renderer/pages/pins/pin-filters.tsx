import type { ReactNode } from 'react';
import type { PinStatus } from '../../../shared/api-types.js';
import { Button } from '../../components/button.js';
import { ListSearch } from '../../components/list-search.js';
import { Select } from '../../components/select.js';
import { pinStatusLook } from '../../lib/status.js';
import { MAX_CID_TEXT } from '../../lib/cid-text.js';
import type { PinStatusChoice } from './pin-search.js';

export interface PinFiltersProps {
  /** What the table shows, in words (a live status line at the end of the bar). */
  summary: ReactNode;
  text: string;
  onText: (text: string) => void;
  /** Enter in the box: search now, without waiting for the pause. */
  onSubmit: () => void;
  status: PinStatusChoice;
  onStatus: (status: PinStatusChoice) => void;
  statuses: readonly PinStatus[];
  /** Given while a search or filter narrows the list: a button that shows every pin again. */
  onClear?: (() => void) | undefined;
}

/**
 * The search box (a name or a CID; "/" jumps to it) and the status filter above the pin table: Active
 * (every pin but those garbage collection is about to remove) unless another is chosen.
 */
export function PinFilters({ summary, text, onText, onSubmit, status, onStatus, statuses, onClear }: PinFiltersProps) {
  return (
    <div className="list-toolbar">
      <ListSearch label="Search pins by name or CID" value={text} onChange={onText} onSubmit={onSubmit} maxLength={MAX_CID_TEXT} />
      <Select<PinStatusChoice>
        label="Status"
        inline
        value={status}
        options={[
          { value: 'active', label: 'Active' },
          { value: 'all', label: 'All' },
          ...statuses.map((value) => ({ value, label: pinStatusLook(value).label })),
        ]}
        onChange={onStatus}
      />
      <p className="muted list-summary" role="status" data-testid="pins-summary">
        {summary}
      </p>
      {onClear ? (
        <Button size="sm" variant="ghost" icon="close" onClick={onClear}>
          Clear search and filter
        </Button>
      ) : null}
    </div>
  );
}
