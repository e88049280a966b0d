import { Page } from '../../components/page.js';

/** Placeholder until this page is built (issue 12); the navigation is complete meanwhile. */
export function NamesPage() {
  return <Page title="Names" description="IPNS names: stable addresses that you point at new content when it changes." />;
}
