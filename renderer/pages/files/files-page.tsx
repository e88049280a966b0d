import { Page } from '../../components/page.js';

/** Placeholder until this page is built (issue 12); the navigation is complete meanwhile. */
export function FilesPage() {
  return <Page title="Files" description="Upload files and folders to get their CIDs, and pin what you keep." />;
}
