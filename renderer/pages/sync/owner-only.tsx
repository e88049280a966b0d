import { Link } from 'wouter';
import { EmptyState } from '../../components/empty-state.js';

/** What another account sees on the Sync pages: why there is nothing here, and what it can do instead. */
export function SyncOwnerOnly() {
  return (
    <EmptyState icon="sync" title="Sync is for the owner of this Pinfold" actions={<Link href="/files">Go to Files</Link>}>
      Sync folders are folders on the computer Pinfold runs on, so only its owner account (the one the desktop app and <code>pinfold open</code> sign in with)
      can add or see them. This account can upload files and folders once on the Files page.
    </EmptyState>
  );
}
