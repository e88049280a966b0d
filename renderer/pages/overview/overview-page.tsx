import { InlineError } from '../../components/inline-error.js';
import { Page } from '../../components/page.js';
import { Section } from '../../components/section.js';
import { UsageMeter } from '../../components/usage-meter.js';
import { useAccountUsage, useDailyUsage } from '../../data/account.js';
import { formatDate, usageRows } from '../../lib/format.js';
import { isEmptyAccount } from '../../lib/usage-series.js';
import { AccountSummary } from './account-summary.js';
import { FirstSteps } from './first-steps.js';
import { UsageCharts } from './usage-charts.js';
import './overview.css';

export const CHART_DAYS = 30;

/**
 * Usage against the plan's limits (live: `event: usage`), traffic and pinned storage over the last 30
 * days, and, for an account with nothing in it yet, the first steps. The request cache keeps both current
 * (renderer/data/account.ts): the figures follow each usage event, the days are asked again after a pause.
 */
export function OverviewPage() {
  const account = useAccountUsage();
  const daily = useDailyUsage(CHART_DAYS);

  const usage = account.data;
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
