import { useId } from 'react';
import './usage-meter.css';

export interface ProgressBarProps {
  /** What is progressing ("Uploading photos"); always shown, so the bar is never unnamed. */
  label: string;
  /** 0..1, or null while the total is unknown (an indeterminate bar). */
  value: number | null;
  /** The figures as words ("3 of 12 files, 4.2 MiB of 10 MiB"). */
  valueText?: string;
  hideLabel?: boolean;
}

/** A labelled progress bar (role progressbar with its value as text for screen readers). */
export function ProgressBar({ label, value, valueText, hideLabel = false }: ProgressBarProps) {
  const labelId = useId();
  const percent = value === null ? null : Math.round(Math.min(Math.max(value, 0), 1) * 100);
  return (
    <div className="progress">
      <div className={hideLabel ? 'visually-hidden' : 'progress-head'}>
        <span id={labelId}>{label}</span>
        {valueText ? <span className="muted numeric">{valueText}</span> : null}
      </div>
      <div
        className={percent === null ? 'progress-bar is-indeterminate' : 'progress-bar'}
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={percent === null ? undefined : 0}
        aria-valuemax={percent === null ? undefined : 100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={valueText}
      >
        <div className="progress-fill" style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
    </div>
  );
}
