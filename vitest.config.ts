import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // End-to-end tests start real servers and child processes; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'node', include: ['test/**/*.test.ts'], exclude: ['test/browser/**'] } },
      // Pages in headless Chromium (Debian's `chromium`): `npm test` runs them too.
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'] } },
    ],
  },
});
