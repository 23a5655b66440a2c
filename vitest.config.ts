import { defineConfig } from 'vitest/config';

/** High-availability tests (Sentinel, Cluster, TLS, the shared budget) start their own Redis processes. */
const HA_TESTS = 'test/ha/**/*.test.ts';
/** The install pages in a real browser. */
const BROWSER_TESTS = 'test/browser/**/*.test.ts';

export default defineConfig({
  test: {
    // End-to-end tests start real servers and child processes; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    // `npm test` runs every project; `npx vitest run --project ha` only the HA tests.
    projects: [
      {
        extends: true,
        test: { name: 'default', include: ['test/**/*.test.ts'], exclude: [HA_TESTS, BROWSER_TESTS] },
      },
      {
        extends: true,
        // One file at a time: each starts several redis-server processes and failovers take seconds.
        test: {
          name: 'ha',
          include: [HA_TESTS],
          testTimeout: 90_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      // Pages in headless Chromium (Debian's `chromium`): `npm test` runs them too.
      { extends: true, test: { name: 'browser', include: [BROWSER_TESTS] } },
    ],
  },
});
