import { useCallback, useEffect, useRef, useState } from 'react';
import type { AccountUsage } from '../../../shared/api-types.js';
import type { ApiClient, Credentials } from '../../api/client.js';
import { ApiError } from '../../api/client.js';
import { ErrorMessage } from '../../components/error-message.js';
import { UsageMeter } from '../../components/usage-meter.js';
import { formatDate, formatTime, usageRows } from '../../lib/format.js';
import { describeError } from '../../lib/messages.js';

interface OverviewPageProps {
  client: ApiClient;
  credentials: Credentials;
  initialUsage: AccountUsage | undefined;
  /** The service no longer accepts the key: the app goes back to sign-in with this message. */
  onUnauthorized: (message: string) => void;
}

export function OverviewPage({ client, credentials, initialUsage, onUnauthorized }: OverviewPageProps) {
  const [usage, setUsage] = useState<AccountUsage | null>(initialUsage ?? null);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(initialUsage ? new Date() : null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(initialUsage === undefined);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(async () => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    try {
      const next = await client.stats(credentials, controller.signal);
      if (controller.signal.aborted) return;
      setUsage(next);
      setUpdatedAt(new Date());
      setError(null);
    } catch (failure) {
      if (controller.signal.aborted) return;
      if (failure instanceof ApiError && failure.isUnauthorized) {
        onUnauthorized(describeError(failure));
        return;
      }
      setError(describeError(failure));
    } finally {
      if (!controller.signal.aborted) setLoading(false);
    }
  }, [client, credentials, onUnauthorized]);

  useEffect(() => {
    if (initialUsage === undefined) void refresh();
    return () => inFlight.current?.abort();
    // Only on mount: later loads are the user's refreshes.
  }, []);

  return (
    <section className="overview" aria-labelledby="overview-title" aria-busy={loading}>
      <div className="page-head">
        <h1 id="overview-title">Overview</h1>
        <button type="button" className="button" onClick={() => void refresh()} disabled={loading}>
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <ErrorMessage message={error} />
      {usage ? <AccountSummary usage={usage} /> : null}
      {usage ? (
        <section aria-labelledby="usage-title">
          <h2 id="usage-title">Usage against plan limits</h2>
          <ul className="usage-grid">
            {usageRows(usage).map((row) => (
              <UsageMeter key={row.key} row={row} />
            ))}
          </ul>
        </section>
      ) : loading ? (
        <p className="status" role="status">
          Loading usage…
        </p>
      ) : null}
      <p className="status updated" role="status" aria-live="polite">
        {updatedAt ? `Updated at ${formatTime(updatedAt)}` : ''}
      </p>
    </section>
  );
}

function AccountSummary({ usage }: { usage: AccountUsage }) {
  return (
    <dl className="card summary" data-testid="summary">
      <div>
        <dt>Plan</dt>
        <dd data-testid="plan">{usage.plan}</dd>
      </div>
      {usage.next_plan && usage.next_plan !== usage.plan ? (
        <div>
          <dt>Next plan</dt>
          <dd data-testid="next-plan">{usage.next_plan}</dd>
        </div>
      ) : null}
      <div>
        <dt>Next bill</dt>
        <dd data-testid="next-bill">{formatDate(usage.next_bill_at)}</dd>
      </div>
      {usage.token_amount !== undefined ? (
        <div>
          <dt>Balance</dt>
          <dd data-testid="balance">{usage.token_amount}</dd>
        </div>
      ) : null}
      {usage.name || usage.email ? (
        <div>
          <dt>Account</dt>
          <dd data-testid="account">{usage.name || usage.email}</dd>
        </div>
      ) : null}
    </dl>
  );
}
