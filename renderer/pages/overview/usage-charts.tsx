import { useMemo } from 'react';
import type { DailyUsage } from '../../../shared/api-types.js';
import { useTheme } from '../../app/theme.js';
import { InlineError } from '../../components/inline-error.js';
import { LazyTimeSeriesChart } from '../../components/lazy-chart.js';
import { Section } from '../../components/section.js';
import { BYTE_STEPS, formatBytes, formatCount, formatDay } from '../../lib/format.js';
import { chartDays, storageSummary, trafficSummary, usageSeries } from '../../lib/usage-series.js';

export interface UsageChartsProps {
  days: readonly DailyUsage[] | undefined;
  error: string | null;
  waiting: boolean;
  onRetry: () => void;
}

/**
 * Traffic per day and pinned storage over time. Each chart has its summary as visible text, and the
 * figures as a table for screen readers (the canvas itself is hidden from them). The charts leave out the
 * leading days on which nothing happened yet (chartDays); the words and the table cover all the days.
 */
export function UsageCharts({ days, error, waiting, onRetry }: UsageChartsProps) {
  const { theme } = useTheme();
  const series = useMemo(() => (days ? usageSeries(chartDays(days)) : null), [days]);
  const traffic = useMemo(
    () =>
      series
        ? [
            { label: 'Uploaded', values: series.ingress, color: '--chart-ingress' as const, kind: 'bars' as const },
            { label: 'Served', values: series.egress, color: '--chart-egress' as const, kind: 'bars' as const },
          ]
        : [],
    [series],
  );
  const storage = useMemo(
    // Bars, as traffic: each day's figure is its own (an area between two days drew a ramp that never happened).
    () => (series ? [{ label: 'Pinned', values: series.pinnedBytes, color: '--chart-pinned' as const, kind: 'bars' as const }] : []),
    [series],
  );

  if (!days || !series) {
    return (
      <Section title="Usage per day" description={error ? 'The figures per day could not be loaded.' : undefined}>
        {error ? (
          <InlineError message={error} onRetry={onRetry} />
        ) : (
          <p className="muted" role="status">
            {waiting ? 'Waiting for the Pinfold service…' : 'Loading the last 30 days…'}
          </p>
        )}
      </Section>
    );
  }
  return (
    <div className="charts">
      <Section title="Traffic per day" description={trafficSummary(days)}>
        {error ? <InlineError message={error} onRetry={onRetry} /> : null}
        <LazyTimeSeriesChart x={series.x} series={traffic} format={formatBytes} increments={BYTE_STEPS} theme={theme} />
      </Section>
      <Section title="Pinned storage" description={storageSummary(days)}>
        <LazyTimeSeriesChart x={series.x} series={storage} format={formatBytes} increments={BYTE_STEPS} theme={theme} />
      </Section>
      <DailyTable days={days} />
    </div>
  );
}

function DailyTable({ days }: { days: readonly DailyUsage[] }) {
  return (
    // Hidden by a wrapper: a table grows to its content whatever height it is given.
    <div className="visually-hidden">
      <table>
        <caption>Usage per day, last {days.length} days (UTC)</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Uploaded</th>
            <th scope="col">Served</th>
            <th scope="col">Pinned storage</th>
            <th scope="col">Pins</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{formatDay(day.day)}</th>
              <td>{formatBytes(day.ingress)}</td>
              <td>{formatBytes(day.egress)}</td>
              <td>{formatBytes(day.pinned_bytes)}</td>
              <td>{formatCount(day.pinned_count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
