import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** CI must run the browser tests; elsewhere they skip, saying why, when Chromium is not installed. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true')
    throw new Error(`Chromium is required on CI but ${CHROMIUM_PATH} is missing`);
  console.warn(`[browser] no ${CHROMIUM_PATH}: skipping the browser tests (apt-get install -y chromium)`);
  return false;
}

/**
 * Headless Chromium with a fresh profile and nothing that reaches out on its own (no updates, no
 * sync, no background fetches): every request it makes is one the test asked for, on loopback.
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'sab-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
