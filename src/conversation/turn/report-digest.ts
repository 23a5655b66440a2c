import { createHash } from 'node:crypto';
import type { ReportDigest, RunStatusReport } from '../ports.js';

/**
 * What the stale rule ("the same report again?") keeps of a final report: a SHA-256 of the message,
 * so the answer's text does not stay in the store for 30 days. Missing fields count as '' / 0.
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

/** A stored final report as a digest: records from before digests (30 days at most) are digested on read. */
export function asReportDigest(stored: ReportDigest | RunStatusReport): ReportDigest {
  return 'messageSha256' in stored && typeof stored.messageSha256 === 'string'
    ? stored
    : digestReport(stored as RunStatusReport);
}
