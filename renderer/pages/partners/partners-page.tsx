import { Page } from '../../components/page.js';

/** Placeholder until this page is built (issue 12); the navigation is complete meanwhile. */
export function PartnersPage() {
  return <Page title="Partners" description="The accounts this partner account created: their plans, usage and keys." />;
}
