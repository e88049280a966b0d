import { Page } from '../../components/page.js';

/** Placeholder until this page is built (issue 12); the navigation is complete meanwhile. */
export function PinsPage() {
  return <Page title="Pins" description="The content this account keeps: pinned data survives garbage collection." />;
}
