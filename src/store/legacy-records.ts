import { asReportDigest } from '../conversation/turn/report-digest.js';
import type { ThreadRecord, TurnRecord } from '../conversation/turn/turn-records.js';

/**
 * A thread record as earlier versions wrote it, read as this version's: a last final report kept
 * whole (before digests) becomes a digest, so the stale rule holds and the next save keeps no text.
 */
export function upgradeThread(record: ThreadRecord | undefined): ThreadRecord | undefined {
  if (record?.lastFinal === undefined) return record;
  return { ...record, lastFinal: asReportDigest(record.lastFinal) };
}

/** A turn record as versions before the one phase vocabulary wrote it. */
type LegacyTurnRecord = Omit<TurnRecord, 'phase'> & {
  phase: TurnRecord['phase'] | 'running';
  /** Past the deadline, watched for a late answer: now phase `late`. */
  late?: boolean | undefined;
};

/** Likewise for a turn record: its previous report, and `running` (+ `late` flag) as `polling` or `late`. */
export function upgradeTurn(stored: TurnRecord | undefined): TurnRecord | undefined {
  if (stored === undefined) return stored;
  const legacy = stored as LegacyTurnRecord;
  let record = stored;
  if (legacy.phase === 'running' || 'late' in legacy) {
    const { late, ...rest } = legacy;
    const phase = rest.phase === 'running' ? (late ? 'late' : 'polling') : rest.phase;
    record = { ...rest, phase };
  }
  if (record.previousFinal === undefined) return record;
  return { ...record, previousFinal: asReportDigest(record.previousFinal) };
}
