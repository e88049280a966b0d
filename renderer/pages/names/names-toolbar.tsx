import { Button } from '../../components/button.js';
import { ListSearch } from '../../components/list-search.js';
import { MAX_ALIAS } from './name-label.js';

export interface NamesToolbarProps {
  text: string;
  onText: (text: string) => void;
  /** Enter in the box: search now, without waiting for the pause. */
  onSubmit: () => void;
  /** What the table shows, in words (a live status line). */
  summary: string;
  /** Given while a search found a name: a button that shows every name again. */
  onClear: (() => void) | undefined;
}

/** The search box (an IPNS name or an alias) above the name table, with what the table shows. */
export function NamesToolbar({ text, onText, onSubmit, summary, onClear }: NamesToolbarProps) {
  return (
    <div className="list-toolbar">
      <ListSearch label="Search names by IPNS name or alias" value={text} onChange={onText} onSubmit={onSubmit} maxLength={MAX_ALIAS} />
      <p className="muted list-summary" role="status" data-testid="names-summary">
        {summary}
      </p>
      {onClear ? (
        <Button size="sm" variant="ghost" icon="close" onClick={onClear}>
          Show all names
        </Button>
      ) : null}
    </div>
  );
}
