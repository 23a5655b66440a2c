import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain `summary: N passed, N failed, N skipped` line at the end of a run.
 * CI's log reader does not know vitest's own summary; this line makes a run that executed
 * no test visible there.
 */
export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed += 1;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    process.stdout.write(`\nsummary: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
