import { useEffect, useRef } from 'react';
import { SearchField } from './search-field.js';
import './list-search.css';

export interface ListSearchProps {
  /** The accessible name and placeholder: "Search pins by name or CID". */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Enter in the box: search now, without waiting for typing to pause. */
  onSubmit: () => void;
  maxLength?: number;
}

/**
 * The search box above a list (a `search` landmark): "/" anywhere on the page but in a field or a dialog
 * jumps to it, as on GitHub, and a hint says so while the box is empty. Lay it out in a `.list-toolbar`
 * beside the list's filters and its `.list-summary`.
 */
export function ListSearch({ label, value, onChange, onSubmit, maxLength }: ListSearchProps) {
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
    <form
      ref={box}
      role="search"
      className="list-search"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <SearchField label={label} value={value} onChange={onChange} maxLength={maxLength} aria-keyshortcuts="/" />
      {value === '' ? (
        <kbd className="search-shortcut" aria-hidden="true" title="Press / to search">
          /
        </kbd>
      ) : null}
    </form>
  );
}
