import type { ThreadRecord, TurnRecord } from '../conversation/ports.js';
import { asReportDigest } from '../conversation/report-digest.js';

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

export function upgradeTurn(record: TurnRecord | undefined): TurnRecord | undefined {
  if (record?.previousFinal === undefined) return record;
  return { ...record, previousFinal: asReportDigest(record.previousFinal) };
}
