import { useSyncExternalStore } from 'react';
import { Banner } from '../components/banner.js';
import { Button } from '../components/button.js';
import { useServices } from './services-context.js';

/**
 * "Pinfold service is not reachable", with Retry, while calls get no answer. The window keeps probing
 * by itself (only while visible) and the banner goes as soon as the service answers; pages then reload.
 * The alert region is always present, so the message is announced when it appears.
 */
export function ConnectivityBanner() {
  const { connectivity } = useServices();
  const state = useSyncExternalStore(connectivity.store.subscribe, connectivity.store.get);
  return (
    <div role="alert" className="connectivity">
      {state.state === 'offline' ? (
        <Banner
          tone="warning"
          actions={
            <Button size="sm" busy={state.checking} busyLabel="Checking…" onClick={() => connectivity.retryNow()}>
              Retry
            </Button>
          }
        >
          <strong>Pinfold service is not reachable.</strong> <span className="muted">Is it still running? This window reconnects by itself.</span>
        </Banner>
      ) : null}
    </div>
  );
}
