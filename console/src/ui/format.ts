const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function when(iso: string | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

export function bytes(value: number | string | undefined): string {
  const n = typeof value === 'string' ? Number(value) : value;
  if (n === undefined || !Number.isFinite(n)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

export const weekdays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "Sunday 02:00 Europe/Berlin, every 2 weeks" */
export function maintenanceWindow(day?: number, hour?: number, weeks?: number, zone?: string): string {
  if (day === undefined || hour === undefined) return '—';
  const every = !weeks || weeks === 1 ? 'every week' : `every ${weeks} weeks`;
  return `${weekdays[day] ?? day} ${String(hour).padStart(2, '0')}:00 ${zone ?? 'UTC'}, ${every}`;
}
