import { useEffect, useState } from 'react';
import { formatDateTime } from '../../lib/format.js';
import { checkedAgo, lastCheck } from '../../lib/followed-folders.js';

/** Seconds matter while a check is recent (a followed folder looks every 30 s): the text moves every 5 s. */
const TICK_MS = 5000;

/**
 * A followed folder's last check: "20 s ago" (or, as `phrase`, "Checked 20 s ago"), with the exact date
 * and time as a tooltip. Ticks only while shown.
 */
export function CheckedAgo({ unixSeconds, phrase = false }: { unixSeconds: number; phrase?: boolean }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (unixSeconds <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [unixSeconds]);
  const text = phrase ? lastCheck(unixSeconds, now) : checkedAgo(unixSeconds, now);
  if (unixSeconds <= 0) return <span className="muted">{text}</span>;
  return (
    <time dateTime={new Date(unixSeconds * 1000).toISOString()} title={formatDateTime(unixSeconds)} data-testid="checked-ago">
      {text}
    </time>
  );
}
