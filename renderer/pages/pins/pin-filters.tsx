import { useEffect, useRef, type ReactNode } from 'react';
import type { PinStatus } from '../../../shared/api-types.js';
import { SearchField } from '../../components/search-field.js';
import { Select } from '../../components/select.js';
import { pinStatusLook } from '../../lib/status.js';
import { MAX_CID_TEXT } from '../../lib/cid-text.js';

type StatusChoice = PinStatus | 'all';

export interface PinFiltersProps {
  /** What the table shows, in words (a live status line at the end of the bar). */
  summary: ReactNode;
  text: string;
  onText: (text: string) => void;
  /** Enter in the box: search now, without waiting for the pause. */
  onSubmit: () => void;
  status: PinStatus | undefined;
  onStatus: (status: PinStatus | undefined) => void;
  statuses: readonly PinStatus[];
}

/** The search box (a name or a CID; "/" jumps to it) and the status filter above the pin table. */
export function PinFilters({ summary, text, onText, onSubmit, status, onStatus, statuses }: PinFiltersProps) {
  const box = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target;
      if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      box.current?.querySelector('input')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="pins-toolbar">
      <form
        ref={box}
        role="search"
        className="pins-search"
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        <SearchField label="Search pins by name or CID" value={text} onChange={onText} maxLength={MAX_CID_TEXT} aria-keyshortcuts="/" />
        {text === '' ? (
          <kbd className="search-shortcut" aria-hidden="true" title="Press / to search">
            /
          </kbd>
        ) : null}
      </form>
      <Select<StatusChoice>
        label="Status"
        inline
        value={status ?? 'all'}
        options={[{ value: 'all', label: 'All statuses' }, ...statuses.map((value) => ({ value, label: pinStatusLook(value).label }))]}
        onChange={(value) => onStatus(value === 'all' ? undefined : value)}
      />
      <p className="muted pins-summary" role="status" data-testid="pins-summary">
        {summary}
      </p>
    </div>
  );
}
