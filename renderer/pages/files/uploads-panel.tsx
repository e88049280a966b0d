import { Button, IconButton } from '../../components/button.js';
import { Icon } from '../../components/icons.js';
import { ProgressBar } from '../../components/progress-bar.js';
import { Section } from '../../components/section.js';
import { formatBytes, formatCount, formatPercent } from '../../lib/format.js';
import { describeJob, isActive, uploadTotals, type UploadJob, type UploadQueue } from '../../lib/upload-queue.js';
import type { Uploads } from './use-uploads.js';

/** Waiting uploads shown one by one; the rest are counted (a drop of thousands of loose files stays light). */
const WAITING_SHOWN = 20;

/** The uploads in progress: the total, then each one with its own bar and Cancel; failed and cancelled ones with Retry. */
export function UploadsPanel({ uploads }: { uploads: Uploads }) {
  const { queue } = uploads;
  const totals = uploadTotals(queue);
  const active = queue.jobs.filter(isActive);
  const shown = visibleJobs(queue);
  const hidden = queue.jobs.length - shown.length;
  return (
    <Section
      title="Uploads"
      description={active.length > 0 ? 'Each file gets its own CID; a folder becomes one directory CID.' : 'Nothing is uploading. These did not finish:'}
      actions={
        active.length > 1 ? (
          <Button variant="secondary" icon="close" onClick={uploads.cancelAll}>
            Cancel all
          </Button>
        ) : null
      }
    >
      {totals.jobs > 0 && active.length > 0 ? (
        <div className="upload-total">
          <ProgressBar
            label={`Uploading ${formatCount(totals.jobs)} ${totals.jobs === 1 ? 'item' : 'items'}`}
            value={totals.fraction}
            valueText={`${formatCount(totals.done)} of ${formatCount(totals.jobs)} done · ${formatPercent(totals.fraction)}${totals.bytes > 0 ? ` · ${formatBytes(totals.bytes)} to go` : ''}`}
          />
        </div>
      ) : null}
      <ul className="upload-list" aria-label="Uploads">
        {shown.map((job) => (
          <UploadRow key={job.id} job={job} uploads={uploads} />
        ))}
      </ul>
      {hidden > 0 ? <p className="muted">{`And ${formatCount(hidden)} more waiting.`}</p> : null}
    </Section>
  );
}

function visibleJobs(queue: UploadQueue): UploadJob[] {
  let waiting = 0;
  return queue.jobs.filter((job) => job.phase !== 'waiting' || waiting++ < WAITING_SHOWN);
}

function UploadRow({ job, uploads }: { job: UploadJob; uploads: Uploads }) {
  const ended = !isActive(job);
  const what = job.kind === 'folder' ? `folder ${job.name}` : job.name;
  return (
    <li className={`upload-row upload-${job.phase}`} data-testid="upload-row">
      <Icon name={job.kind === 'folder' ? 'folder' : 'files'} className="upload-icon" size={18} />
      <div className="upload-main">
        {ended ? (
          <>
            <span className="upload-name">{job.name}</span>
            <p
              className={job.phase === 'failed' ? 'upload-failure' : 'muted'}
              role={job.phase === 'failed' ? 'alert' : job.phase === 'kept' ? 'status' : undefined}
            >
              {job.phase === 'failed' ? <Icon name="alert" className="upload-failure-icon" /> : null}
              {describeJob(job)}
            </p>
          </>
        ) : (
          <ProgressBar label={job.name} value={job.phase === 'waiting' ? 0 : jobBar(job)} valueText={describeJob(job)} />
        )}
        {job.phase === 'reading' && job.read.path ? <p className="upload-current muted">{job.read.path}</p> : null}
      </div>
      <div className="upload-actions">
        {ended ? (
          <>
            {job.phase === 'kept' ? null : (
              <Button size="sm" onClick={() => uploads.retry(job.id)}>
                Retry
              </Button>
            )}
            <IconButton size="sm" icon="close" label={`Dismiss ${what}`} onClick={() => uploads.dismiss(job.id)} />
          </>
        ) : job.phase === 'cancelling' ? null : (
          <Button size="sm" variant="secondary" onClick={() => uploads.cancel(job.id)} aria-label={`Cancel upload of ${what}`}>
            Cancel
          </Button>
        )}
      </div>
    </li>
  );
}

/** The bar of one upload: a file by bytes sent; a folder by files read, then by bytes sent (its text says which). */
function jobBar(job: UploadJob): number | null {
  if (job.phase === 'storing' || job.phase === 'cancelling') return null;
  if (job.phase === 'reading') return job.bytes > 0 ? job.read.bytes / job.bytes : job.files > 0 ? job.read.files / job.files : 0;
  return job.payload > 0 ? job.sent / job.payload : 0;
}
