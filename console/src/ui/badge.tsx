const tone: Record<string, 'ok' | 'busy' | 'idle' | 'bad'> = {
  Active: 'ok',
  Succeeded: 'ok',
  succeeded: 'ok',
  Stopped: 'idle',
  Idle: 'idle',
  Inactive: 'idle',
  Failed: 'bad',
  failed: 'bad',
};

/** A status as a coloured badge: Active green, transitional amber (moving), Stopped/Idle grey, Failed red. */
export function StatusBadge({ status }: { status: string | undefined }) {
  const text = status ?? 'Unknown';
  return <span className={`badge badge-${tone[text] ?? 'busy'}`}>{text}</span>;
}
