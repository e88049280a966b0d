import { ActionConfirmDialog } from '../../app/action-confirm-dialog.js';
import { useSessionControl } from '../../app/session.js';
import { useToasts } from '../../components/toasts.js';
import { useRevokeAllSessions } from '../../data/keys.js';

export interface RevokeSessionsDialogProps {
  open: boolean;
  sessionCount: number;
  /** This window runs on one of the sessions: it signs out too. */
  thisWindowToo: boolean;
  onClose: () => void;
}

/** Revoke all browser sessions, confirmed: how many were revoked is said, and a window that was one of them signs out saying so. */
export function RevokeSessionsDialog({ open, sessionCount, thisWindowToo, onClose }: RevokeSessionsDialogProps) {
  const toasts = useToasts();
  const { signOut } = useSessionControl();
  const revokeAll = useRevokeAllSessions();
  const done = async (count: number) => {
    const revoked = `Revoked ${count} browser ${count === 1 ? 'session' : 'sessions'}`;
    if (thisWindowToo) await signOut({ notice: `${revoked}, this window's too. Sign in again with a new link from \`pinfold open\`, or with an access key.` });
    else toasts.show(`${revoked}.`);
  };
  return (
    <ActionConfirmDialog
      target={open ? { thisWindowToo } : null}
      action={revokeAll}
      onDone={(result) => done(result.revoked)}
      onClose={onClose}
      title="Revoke all browser sessions?"
      confirmLabel="Revoke all"
      busyLabel="Revoking…"
    >
      <p>
        Every window signed in with a one-time link ({sessionCount} {sessionCount === 1 ? 'session' : 'sessions'}) is signed out at its next request. Access
        keys go on working.
      </p>
      {thisWindowToo ? <p>This window is one of them: it signs out too.</p> : null}
    </ActionConfirmDialog>
  );
}
