import { BRIDGE_GLOBAL, type PinfoldBridge } from '../shared/preload-bridge.js';

/** The desktop preload's bridge, or null in a plain browser (the page is served to any local browser). */
export function desktopBridge(): PinfoldBridge | null {
  const candidate = (window as unknown as Record<string, unknown>)[BRIDGE_GLOBAL];
  if (typeof candidate === 'object' && candidate !== null && (candidate as { isDesktop?: unknown }).isDesktop === true) {
    return candidate as PinfoldBridge;
  }
  return null;
}
