import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunStatusReport } from '../../../src/conversation/ports.js';
import {
  asReportDigest,
  digestReport,
  sameReportDigest,
} from '../../../src/conversation/turn/report-digest.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('digestReport', () => {
  it.each<[string, RunStatusReport, object]>([
    [
      'a done report',
      { status: 'done', message: 'Schön: 3 errors', totalSteps: 4 },
      { status: 'done', totalSteps: 4, messageSha256: sha256('Schön: 3 errors') },
    ],
    [
      'missing fields as empty',
      { status: 'canceled' },
      { status: 'canceled', totalSteps: 0, messageSha256: sha256('') },
    ],
  ])('%s', (_name, report, expected) => {
    expect(digestReport(report)).toEqual(expected);
  });

  it('tells reports apart by status, steps and message', () => {
    const base = digestReport({ status: 'done', message: 'a', totalSteps: 1 });
    expect(sameReportDigest(base, digestReport({ status: 'done', message: 'a', totalSteps: 1 }))).toBe(true);
    expect(sameReportDigest(base, digestReport({ status: 'error', message: 'a', totalSteps: 1 }))).toBe(
      false,
    );
    expect(sameReportDigest(base, digestReport({ status: 'done', message: 'b', totalSteps: 1 }))).toBe(false);
    expect(sameReportDigest(base, digestReport({ status: 'done', message: 'a', totalSteps: 2 }))).toBe(false);
  });
});

describe('asReportDigest', () => {
  it('keeps a digest as it is', () => {
    const digest = digestReport({ status: 'done', message: 'answer', totalSteps: 2 });
    expect(asReportDigest(digest)).toBe(digest);
  });

  it.each<[string, RunStatusReport]>([
    [
      'a whole report, as the previous version stored it',
      { status: 'done', message: 'answer', totalSteps: 2 },
    ],
    ['one without a message', { status: 'error', totalSteps: 1 }],
    ['one with the status only', { status: 'canceled' }],
  ])('digests %s', (_name, legacy) => {
    expect(asReportDigest(legacy)).toEqual(digestReport(legacy));
  });
});
