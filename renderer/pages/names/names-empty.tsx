import type { ReactNode } from 'react';
import { Button } from '../../components/button.js';
import { EmptyState } from '../../components/empty-state.js';

export interface NamesEmptyProps {
  /** A search narrows the list. */
  searching: boolean;
  /** What was searched for, in words (describeNameView). */
  searched: string;
  onClear: () => void;
  /** Import key and Create name, as the page's header has them. */
  actions: ReactNode;
}

/** What an empty name table says: that a search matched nothing (and how to clear it), or how to make the first name. */
export function NamesEmpty({ searching, searched, onClear, actions }: NamesEmptyProps) {
  if (searching) {
    return (
      <EmptyState icon="search" title="No names match" actions={<Button onClick={onClear}>Clear search</Button>}>
        {searched}
      </EmptyState>
    );
  }
  return (
    <EmptyState icon="names" title="No names yet" actions={actions}>
      Create a name for content you will update (a site, a folder), or import a key you made with Kubo or libp2p. Sync folders get a name of their own.
    </EmptyState>
  );
}
