import { asReportDigest } from '../conversation/turn/report-digest.js';
import type { ThreadRecord, TurnRecord } from '../conversation/turn/turn-records.js';

/**
 * Records as earlier versions wrote them, read as this version's. Until digests, a thread kept its
 * last final report whole (the answer's text, for 30 days) and a follow-up's turn its previous
 * one: read now, they become digests (`asReportDigest` tells the shapes apart), so the stale rule
 * still holds and the next save keeps no text.
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

/**
 * Besides the digest: turn records used to say `running` for a polled run, with a `late` flag
 * once past the deadline; the machine and the record now share one vocabulary (`polling`, `late`).
 */
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
