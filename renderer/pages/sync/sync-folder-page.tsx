import { Page } from '../../components/page.js';

/** Placeholder until this page is built (issue 12): one sync folder's progress, errors, ignore rules and batches. */
export function SyncFolderPage({ id }: { id: string }) {
  return <Page title="Sync folder" description={`Progress, errors, ignore patterns and recent changes of sync folder ${id}.`} />;
}
