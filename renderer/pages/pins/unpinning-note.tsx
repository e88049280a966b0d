import { useServiceFacts } from '../../data/service.js';
import { formatDuration } from '../../lib/format.js';

/**
 * Under an unpinning pin's status: what the status means. The service says how often garbage collection
 * runs (GET /api/v0/service, the owner's), not when it last ran, so the note gives the interval; another
 * account does not see the service's facts and gets the words alone.
 */
export function UnpinningNote() {
  const facts = useServiceFacts();
  const interval = facts.data?.gc_interval_seconds;
  return <span className="pin-note muted">Goes at the next garbage collection{interval === undefined ? '' : ` (every ${formatDuration(interval)})`}.</span>;
}
