import type { FolderMonitor } from './folder-monitor.js';
import { notificationsBetween, type ShellNotification, type ShellSnapshot } from './notifications.js';
import type { ServiceStatusSource } from './service-status.js';

/**
 * Feeds every change of the service status and of its content through notificationsBetween, from the
 * state at start on (which itself is never told), and shows what it decides.
 */
export function watchForNotifications(status: ServiceStatusSource, content: FolderMonitor, show: (notification: ShellNotification) => void): () => void {
  let previous: ShellSnapshot | null = null;
  const step = () => {
    const next: ShellSnapshot = { service: status.current(), content: content.current() };
    const due = notificationsBetween(previous, next);
    previous = next;
    for (const notification of due) show(notification);
  };
  step();
  const stopStatus = status.onChange(step);
  const stopContent = content.onChange(step);
  return () => {
    stopStatus();
    stopContent();
  };
}
