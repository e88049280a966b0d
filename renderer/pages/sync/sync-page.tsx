import { Page } from '../../components/page.js';

/** Placeholder until this page is built (issue 12); the navigation is complete meanwhile. */
export function SyncPage() {
  return <Page title="Sync" description="Folders on this computer kept pinned and published as they change." />;
}
