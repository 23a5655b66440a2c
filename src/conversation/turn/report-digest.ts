import { createHash } from 'node:crypto';
import type { ReportDigest, RunStatusReport } from '../ports.js';

/**
 * What the stale rule keeps of a final status report: the rule only asks "is this the same report
 * again?", so a SHA-256 of the message answers it without the answer's text staying in the store
 * for the thread's 30 days. Missing message / totalSteps count as '' / 0, as they always have.
 */
export function digestReport(report: RunStatusReport): ReportDigest {
  return {
    status: report.status,
    totalSteps: report.totalSteps ?? 0,
    messageSha256: createHash('sha256')
      .update(report.message ?? '', 'utf8')
      .digest('hex'),
  };
}

/** Same status, steps and message. */
export function sameReportDigest(a: ReportDigest, b: ReportDigest): boolean {
  return a.status === b.status && a.totalSteps === b.totalSteps && a.messageSha256 === b.messageSha256;
}

/**
 * A stored final report as a digest. Records written before digests (up to 30 days old) hold the
 * whole report, message included: they are digested on read, so their stale rule still holds and
 * the next save keeps only the digest.
 */
export function asReportDigest(stored: ReportDigest | RunStatusReport): ReportDigest {
  return 'messageSha256' in stored && typeof stored.messageSha256 === 'string'
    ? stored
    : digestReport(stored as RunStatusReport);
}
