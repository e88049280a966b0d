/**
 * A small daily time-series chart on uPlot (canvas, ~50 KB, fast with thousands of points). Loaded
 * lazily (see lazy-chart.tsx): the shell and the other pages never pay for it. Colours come from the
 * design tokens, resolved for the theme in effect, and the chart is redrawn when the theme changes.
 * The canvas is decorative for assistive technology: callers give a text alternative beside it.
 */
import { useEffect, useMemo, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Theme } from '../lib/theme.js';
import './chart.css';

export interface ChartSeries {
  label: string;
  values: readonly number[];
  /** A design token: '--chart-ingress'. */
  color: `--${string}`;
  kind: 'bars' | 'area';
}

export interface TimeSeriesChartProps {
  /** Unix seconds of each UTC day. */
  x: readonly number[];
  series: readonly ChartSeries[];
  /** How a value reads on the axis and in the legend (bytes, counts). */
  format: (value: number) => string;
  /** Steps the value axis may use (binary sizes for bytes, so labels read "256 KiB", not "262.1 KB"). */
  increments?: readonly number[];
  theme: Theme;
  height?: number;
}

const DAY = 86_400;

/** A token's colour as the browser computes it now (light-dark() resolved by the current theme). */
function resolveColor(token: string, host: HTMLElement): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${token})`;
  host.appendChild(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
}

function withAlpha(color: string, alpha: number): string {
  const match = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(color);
  return match ? `rgba(${match[1]}, ${match[2]}, ${match[3]}, ${alpha})` : color;
}

const dayFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The value a legend shows: the day under the cursor, or the latest day while the cursor is elsewhere
 * (uPlot passes no index then), so the legend reads as figures rather than dashes until hovered.
 */
function legendValue(plot: uPlot, value: number | null, seriesIndex: number, index: number | null): number | null {
  if (index !== null) return value;
  return plot.data[seriesIndex]?.at(-1) ?? null;
}

export default function TimeSeriesChart({ x, series, format, increments, theme, height = 200 }: TimeSeriesChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const aligned = useMemo<uPlot.AlignedData>(() => [x as number[], ...series.map((entry) => entry.values as number[])], [x, series]);
  const latest = useRef(aligned);

  // Built again when the theme or the set of series changes; data alone is set in place below.
  const shape = series.map((entry) => `${entry.label}:${entry.color}:${entry.kind}`).join('|');
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const text = resolveColor('--text-muted', element);
    const grid = resolveColor('--chart-grid', element);
    const bars = series.filter((entry) => entry.kind === 'bars').length;
    let barIndex = 0;
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 200),
      height,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      padding: [8, 8, 0, 0],
      cursor: { points: { size: 6 }, drag: { x: false, y: false } },
      legend: { live: true },
      scales: {
        x: { time: true, range: (_u, min, max) => [min - DAY / 2, max + DAY / 2] },
        // An empty chart still gets a sensible axis: four steps of the smallest increment.
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.12 : 4 * (increments?.[0] ?? 1)] },
      },
      axes: [
        {
          stroke: text,
          grid: { show: false },
          ticks: { stroke: grid },
          values: (_u, splits) => splits.map((value) => dayFormat.format(new Date(value * 1000))),
        },
        {
          stroke: text,
          grid: { stroke: grid, width: 1 },
          ticks: { show: false },
          size: 72,
          ...(increments ? { incrs: [...increments] } : {}),
          values: (_u, splits) => splits.map((value) => format(value)),
        },
      ],
      series: [
        {
          label: 'Day',
          value: (u, raw, seriesIndex, index) => {
            const value = legendValue(u, raw, seriesIndex, index);
            return value == null ? '—' : dayFormat.format(new Date(value * 1000));
          },
        },
        ...series.map((entry): uPlot.Series => {
          const color = resolveColor(entry.color, element);
          const common = {
            label: entry.label,
            stroke: color,
            value: (u: uPlot, raw: number | null, seriesIndex: number, index: number | null) => {
              const value = legendValue(u, raw, seriesIndex, index);
              return value == null ? '—' : format(value);
            },
          };
          if (entry.kind === 'bars') {
            const align: -1 | 0 | 1 = bars < 2 ? 0 : barIndex++ === 0 ? -1 : 1;
            return {
              ...common,
              width: 0,
              fill: color,
              paths: uPlot.paths.bars?.({ size: [bars < 2 ? 0.6 : 0.38, 28], align, gap: 1 }),
              points: { show: false },
            };
          }
          return { ...common, width: 2, fill: withAlpha(color, theme === 'dark' ? 0.22 : 0.14), points: { show: false } };
        }),
      ],
    };
    const chart = new uPlot(options, latest.current, element);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 200), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
    // `shape` stands for `series` here: a new array with the same series must not rebuild the chart.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shape, theme, height, format, increments]);

  useEffect(() => {
    latest.current = aligned;
    plot.current?.setData(aligned);
  }, [aligned]);

  return <div ref={host} className="time-series-chart" aria-hidden="true" />;
}
