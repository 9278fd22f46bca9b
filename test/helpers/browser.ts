import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; playwright-core drives it (its own browser downloads are not used). */
export const CHROMIUM = process.env.ACACIA_CHROMIUM ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or undefined when they can. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `Chromium is not installed at ${CHROMIUM}: install it (apt-get install chromium), as .ci/run does`;
}

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 375, height: 812 };

export interface Browser {
  context: BrowserContext;
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile directory, removed again by close(). */
export async function launchBrowser(): Promise<Browser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'acacia-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: DESKTOP,
    locale: 'en-GB',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
  });
  return {
    context,
    async newPage(viewport = DESKTOP) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      return page;
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the page has loaded and shows no "Loading…" any more. Not `networkidle`: the
 * console holds its event stream open, so the network never falls idle.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  // A locator, not waitForFunction: the console's CSP refuses the page-side eval that takes.
  await page.getByText('Loading…', { exact: true }).first().waitFor({ state: 'detached' });
}
