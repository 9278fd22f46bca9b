import { request } from 'undici';

/** The server's Prometheus text page (GET /metrics). */
export async function scrape(baseUrl: string): Promise<string> {
  return (await request(`${baseUrl}/metrics`)).body.text();
}

/** The value of one series of a Prometheus text page (0 when absent). */
export function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
