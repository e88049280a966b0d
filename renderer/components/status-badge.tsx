import type { PinStatus, SyncState } from '../../shared/api-types.js';
import { pinStatusLook, syncStateLook, type StatusLook, type StatusTone } from '../lib/status.js';
import { Icon, type IconName } from './icons.js';
import './badges.css';

const ICONS: Record<StatusTone, IconName> = {
  neutral: 'pause',
  progress: 'spinner',
  success: 'check',
  warning: 'clock',
  danger: 'alert',
};

/** A state as an icon and a word (never colour alone). Use the pin/sync forms, or `look` for others. */
export function StatusBadge(props: { pin: PinStatus } | { sync: SyncState } | { look: StatusLook }) {
  const look = 'pin' in props ? pinStatusLook(props.pin) : 'sync' in props ? syncStateLook(props.sync) : props.look;
  return (
    <span className={`badge badge-${look.tone}`}>
      <Icon name={ICONS[look.tone]} size={12} className={look.tone === 'progress' ? 'spin' : undefined} />
      {look.label}
    </span>
  );
}

/** A plain label (a plan name, "Session key"). */
export function Tag({ children }: { children: string }) {
  return <span className="badge badge-neutral">{children}</span>;
}
