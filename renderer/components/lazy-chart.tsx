import { lazy, Suspense } from 'react';
import type { TimeSeriesChartProps } from './time-series-chart.js';
import './chart.css';

const TimeSeriesChart = lazy(() => import('./time-series-chart.js'));

/** TimeSeriesChart in its own chunk (uPlot loads only when a chart is shown), holding its height meanwhile. */
export function LazyTimeSeriesChart(props: TimeSeriesChartProps) {
  const height = props.height ?? 200;
  return (
    <Suspense fallback={<div className="chart-placeholder" style={{ height: height + 36 }} aria-hidden="true" />}>
      <TimeSeriesChart {...props} />
    </Suspense>
  );
}

export type { ChartSeries } from './time-series-chart.js';
