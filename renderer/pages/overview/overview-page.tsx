import { useEffect, useRef } from 'react';
import { useAccount } from '../../app/account.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useApi } from '../../app/session.js';
import { useEvent } from '../../events/events-provider.js';
import { InlineError } from '../../components/inline-error.js';
import { Page } from '../../components/page.js';
import { Section } from '../../components/section.js';
import { UsageMeter } from '../../components/usage-meter.js';
import { formatDate, usageRows } from '../../lib/format.js';
import { isEmptyAccount } from '../../lib/usage-series.js';
import { AccountSummary } from './account-summary.js';
import { FirstSteps } from './first-steps.js';
import { UsageCharts } from './usage-charts.js';
import './overview.css';

/** After a usage event, the per-day figures are fetched again at most this often. */
const DAILY_REFRESH_MS = 10_000;
export const CHART_DAYS = 30;

/**
 * Usage against the plan's limits (live: `event: usage`), traffic and pinned storage over the last 30
 * days, and, for an account with nothing in it yet, the first steps.
 */
export function OverviewPage() {
  const api = useApi();
  const account = useAccount();
  const daily = useResource((signal) => api.account.daily(CHART_DAYS, signal), [api]);

  // Usage changed: today's bar changed too. Fetched again after a pause, so a busy upload does not refetch per event.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEvent('usage', () => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      daily.reload();
    }, DAILY_REFRESH_MS);
  });
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );

  const usage = account.usage;
  return (
    <Page
      title="Overview"
      description={usage ? `Usage of this account against the limits of its ${usage.plan} plan. The figures update by themselves.` : undefined}
    >
      {usage ? (
        <>
          <AccountSummary usage={usage} />
          {isEmptyAccount(usage) ? <FirstSteps /> : null}
          <Section
            title="Usage against plan limits"
            description={`Uploads and downloads count from the start of the month until ${formatDate(usage.next_bill_at)} (UTC).`}
          >
            <ul className="usage-grid">
              {usageRows(usage).map((row) => (
                <UsageMeter key={row.key} row={row} />
              ))}
            </ul>
          </Section>
          <UsageCharts days={daily.data} error={daily.error} waiting={daily.waiting} onRetry={daily.reload} />
        </>
      ) : account.error ? (
        <InlineError message={account.error} onRetry={account.reload} />
      ) : (
        <p className="muted" role="status">
          {account.waiting ? 'Waiting for the Pinfold service…' : 'Loading usage…'}
        </p>
      )}
    </Page>
  );
}
