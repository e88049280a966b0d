import { Page } from '../../components/page.js';

/** Placeholder until this page is built (issue 12); the navigation is complete meanwhile. */
export function KeysPage() {
  return <Page title="Keys" description="Access keys for scripts and apps, each with only the permissions it needs." />;
}
