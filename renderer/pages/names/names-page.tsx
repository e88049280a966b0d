import { useState } from 'react';
import type { IpnsRecordView } from '../../../shared/api-types.js';
import type { NameBinding } from '../../api/names.js';
import { useListSearch } from '../../app/hooks/use-list-search.js';
import { useOpenContent } from '../../app/hooks/use-open-content.js';
import { usePageInRange } from '../../app/hooks/use-page-in-range.js';
import { Button } from '../../components/button.js';
import { Page } from '../../components/page.js';
import { Pagination } from '../../components/pagination.js';
import { useToasts } from '../../components/toasts.js';
import { useNameList } from '../../data/names.js';
import { middleEllipsis } from '../../lib/format.js';
import { CreateNameDialog } from './create-name-dialog.js';
import { DeleteNameDialog } from './delete-name-dialog.js';
import { ImportKeyDialog } from './import-key-dialog.js';
import { nameLabel } from './name-label.js';
import { describeNameView, NAME_SEARCH_BOX, nameListQuery, searchOfNameQuery } from './name-search.js';
import { NamesEmpty } from './names-empty.js';
import { NamesTable } from './names-table.js';
import { NamesToolbar } from './names-toolbar.js';
import { PublishNameDialog } from './publish-name-dialog.js';
import './names.css';

/** Search as you type: the service is asked once typing pauses this long (a stale request is aborted). */
const SEARCH_DEBOUNCE_MS = 150;

/**
 * The IPNS names of this account, newest first: create one from a CID (pinned too), publish a new CID to
 * one (a failure says why and offers Retry), edit its alias in place, import a key file, delete with a
 * confirmation, copy the name and open /ipns/<name>, make it public on the IPFS network (a switch that asks
 * first; a public name carries a Public mark). One search box finds a name by its IPNS name or its
 * alias, kept in the URL (`?name=` or `?alias=`: the desktop app's ipfs:// handler opens
 * `/names?name=<name>`). Rows follow `event: name` without a reload: the request cache does
 * (renderer/data/names.ts).
 */
export function NamesPage() {
  const toasts = useToasts();
  const { position, setPosition, search, text, setText, writeQuery, clearSearch } = useListSearch(NAME_SEARCH_BOX, SEARCH_DEBOUNCE_MS);
  const names = useNameList(nameListQuery(search, position));
  usePageInRange(names, position, setPosition);
  const total = names.data?.total ?? 0;
  // A page carries the query it answers, so the words above it describe the rows shown, not a query still loading.
  const shown = names.data ? searchOfNameQuery(names.data.query) : search;

  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [publishing, setPublishing] = useState<IpnsRecordView | null>(null);
  const [deleting, setDeleting] = useState<IpnsRecordView | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const opener = useOpenContent();

  /** After create or import: the new name leads the first page (the request cache loads it again); go there, without a search, and mark it. */
  const showNew = (verb: string) => (binding: NameBinding) => {
    setCreating(false);
    setImporting(false);
    setFresh(binding.name);
    toasts.show(`${verb} ${middleEllipsis(binding.name, 12, 6)}, pointing at ${middleEllipsis(binding.value)}.`);
    if (search.kind !== 'none') clearSearch();
    if (position.start !== 0) setPosition({ start: 0, limit: position.limit });
  };

  const searching = search.kind !== 'none';
  // An account with no name at all: the empty table says what to do; a search box and pages would be noise.
  const nothingYet = !searching && text === '' && names.data !== undefined && total === 0 && position.start === 0;
  const pageActions = (
    <>
      <Button icon="upload" onClick={() => setImporting(true)}>
        Import key
      </Button>
      <Button variant="primary" icon="plus" onClick={() => setCreating(true)}>
        Create name
      </Button>
    </>
  );

  return (
    <Page
      title="Names"
      description="IPNS names: stable addresses that you point at new content when it changes. The list updates by itself."
      actions={pageActions}
    >
      {nothingYet ? null : (
        <NamesToolbar
          text={text}
          onText={setText}
          onSubmit={() => writeQuery(text)}
          summary={names.data ? describeNameView(shown, total) : ''}
          onClear={searching && total > 0 ? clearSearch : undefined}
        />
      )}
      <NamesTable
        names={names}
        opener={opener}
        fresh={fresh}
        empty={<NamesEmpty searching={searching} searched={describeNameView(shown, 0)} onClear={clearSearch} actions={pageActions} />}
        onPublish={setPublishing}
        onDelete={setDeleting}
      />
      {nothingYet || searching || !names.data ? null : <Pagination label="Names" total={total} {...position} onChange={setPosition} />}
      <CreateNameDialog open={creating} onClose={() => setCreating(false)} onDone={showNew('Created')} />
      <ImportKeyDialog open={importing} onClose={() => setImporting(false)} onDone={showNew('Imported')} />
      <PublishNameDialog
        target={publishing}
        onClose={() => setPublishing(null)}
        onPublished={(binding) => {
          setPublishing(null);
          toasts.show(`Published: ${publishing ? nameLabel(publishing) : middleEllipsis(binding.name)} now points at ${middleEllipsis(binding.value)}.`);
        }}
      />
      <DeleteNameDialog name={deleting} onClose={() => setDeleting(null)} />
    </Page>
  );
}
