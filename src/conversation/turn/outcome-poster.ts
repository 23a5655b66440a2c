import type { AgentSessions } from '../agent-session.js';
import type { ConversationMetrics, ConversationStore } from '../ports.js';
import type { OutputStyle, ThreadOutput, TurnNotice } from '../thread-output-port.js';
import { type AnswerPostDeps, createAnswerPost, logOf, targetOf } from './answer-post.js';
import type { PostPlace } from './audience-at-post.js';
import { deliverWhileTransient, type RetryResult } from './outcome-retry.js';
import { outputFailureCode } from './output-error.js';
import { createThreadCheck, type ThreadCheck } from './thread-check.js';
import { type FinalOutcome, type TurnInFlight, where } from './turn-in-flight.js';
import { DELIVERY_CLAIM_TTL_MS, type TurnLedger } from './turn-ledger.js';
import { threadChangeOf } from './turn-machine.js';
import type { TurnObserver } from './turn-observer.js';
import type { TurnProgress } from './turn-progress.js';
import { receiptOf } from './turn-receipt.js';
import type { TurnOutcome } from './turn-records.js';

export interface OutcomePosterDeps extends Omit<AnswerPostDeps, 'store' | 'output' | 'threadCheck'> {
  ledger: TurnLedger;
  store: Pick<ConversationStore, 'getThread' | 'indexAnswer'>;
  /** The Slack side: posting, and reading the thread for what already landed. */
  output: Pick<ThreadOutput, 'postAnswer' | 'postNotice' | 'findTurnMessages' | 'removeProgress'>;
  progress: Pick<TurnProgress, 'settle' | 'end'>;
  sessions?: Pick<AgentSessions, 'end'> | undefined;
  metrics: Pick<
    ConversationMetrics,
    'deliveryDropped' | 'turnFinished' | 'deliveryLatency' | 'timeToVerdict'
  >;
  observer?: Pick<TurnObserver, 'finished'> | undefined;
  /** The turn is over here: the machine is told, polling stops, the runner forgets it. */
  finished(entry: TurnInFlight): Promise<void>;
  stopPolling(turnId: string): void;
  /** True while the turn is still this instance's (not untracked, not replaced by a takeover). */
  isCurrent(entry: TurnInFlight): boolean;
  /** Default `Math.random` (the jitter of delivery retries). */
  random?: (() => number) | undefined;
}

/** A claim held elsewhere is looked at again this often, not backed off: a dead holder costs TTL + this. */
const CLAIM_RECHECK_MS = 1_000;

/** Another replica holds this turn's delivery claim: wait, then look again. */
class ClaimedElsewhere extends Error {
  constructor() {
    super('delivery claimed by another instance');
    this.name = 'ClaimedElsewhere';
  }
}

/** Notices that quote the service's own words (an agent's error, the service's error message). */
const quotesTheService = (notice: TurnNotice) =>
  notice.kind === 'run-error' || notice.kind === 'service-error';
/**
 * Posts what the turn machine decided ends a turn, retried while Slack fails transiently, exactly
 * once within the window we accept: `chat.postMessage` has no idempotency key, so the order is claim
 * ({@link DELIVERY_CLAIM_TTL_MS}) → post → mark delivered → clear, and after a takeover or a failed
 * attempt the thread is read first for what carries the turn id (thread-check.ts). What remains:
 * - the holder dies mid-post: the outcome is late by up to the claim's TTL (never lost);
 * - a multi-part answer cut off part-way is posted again in full (the first parts show twice);
 * - a post Slack accepted but does not yet list in `conversations.replies` is posted again.
 */
export function createOutcomePoster(deps: OutcomePosterDeps) {
  const { ledger, output, progress, clock, logger, metrics } = deps;
  const threadCheck = createThreadCheck({ output, logger });
  const answers = createAnswerPost({ ...deps, threadCheck });
  const { releaseThread, finish, notLanded } = createTurnClosing(deps, threadCheck);

  async function post(entry: TurnInFlight, outcome: FinalOutcome): Promise<void> {
    await entry.noticeChain;
    if (!deps.isCurrent(entry)) return;
    const seenAt = clock.now();
    const result = await retrying(deps, entry, (style) => postOnce(entry, outcome, style));
    if (!result.ok) return notLanded(entry, result);
    // Counted where the answer was posted: `value` is false when another replica had posted it.
    if (result.value && outcome.kind === 'report' && outcome.report.status === 'done') {
      metrics.deliveryLatency(clock.now() - seenAt);
      const { alertAt } = entry.turn;
      if (alertAt !== undefined) metrics.timeToVerdict(clock.now() - alertAt);
    }
  }

  /** One attempt. Returns false when another instance had already delivered it. */
  async function postOnce(entry: TurnInFlight, outcome: FinalOutcome, style: OutputStyle): Promise<boolean> {
    const { turn } = entry;
    if (await ledger.isDelivered(turn.turnId)) {
      await finish(entry, undefined);
      return false;
    }
    if (!(await ledger.deliveryClaim(turn.turnId).take(DELIVERY_CLAIM_TTL_MS))) throw new ClaimedElsewhere();
    await progress.settle(turn.turnId);
    await releaseThread(entry, true);
    if (outcome.kind === 'report' && outcome.report.status === 'done') {
      await answers.postAnswer(entry, outcome.report, outcome.late, style);
      await finish(entry, 'done');
      return true;
    }
    const notice = noticeOf(outcome);
    const posted = entry.takenOver && (await threadCheck.look(turn)).notices.includes(notice.kind);
    const steps = outcome.kind === 'report' ? (outcome.report.totalSteps ?? entry.steps) : entry.steps;
    const receipt = receiptOf(turn, clock.now(), steps);
    if (!posted) {
      const place: PostPlace = quotesTheService(notice) ? await answers.placeFor(entry) : { kind: 'here' };
      const shown: TurnNotice =
        place.kind === 'withheld' ? { kind: 'withheld', reason: place.reason } : notice;
      await output.postNotice(targetOf(turn, place), shown, turn.turnId, style, receipt);
    }
    logOf(logger, turn).info({ notice: notice.kind, style }, 'turn ended without an answer');
    const ended = outcome.kind === 'report' ? (outcome.report.status as TurnOutcome) : outcome.outcome;
    await finish(entry, ended);
    return true;
  }

  /** The "still working, still watching" notice: posted like an outcome, but the turn goes on. */
  async function postDeadlineNotice(entry: TurnInFlight): Promise<void> {
    const { turn } = entry;
    await progress.settle(turn.turnId);
    const notice: TurnNotice = {
      kind: 'deadline',
      waitedMs: clock.now() - turn.startedAt,
      watchForMs: Math.max(0, (turn.watchUntil ?? 0) - clock.now()),
    };
    const result = await retrying(deps, entry, async (style) => {
      if (entry.takenOver && (await threadCheck.look(turn)).notices.includes('deadline')) return;
      const receipt = receiptOf(turn, clock.now(), entry.steps);
      await output.postNotice(where(turn), notice, turn.turnId, style, receipt);
    });
    if (!result.ok) return notLanded(entry, result);
    entry.turn = { ...entry.turn, deadlineNoticed: true, progressTs: undefined };
    if (deps.isCurrent(entry)) await ledger.saveTurn(entry.turn);
    // The indicator said "working"; from now on the notice says it, and no progress is shown.
    if (turn.progressTs) await output.removeProgress(where(turn), turn.progressTs).catch(() => undefined);
    await threadCheck.removeStrays(turn);
  }

  return { post, postDeadlineNotice, forget: threadCheck.forget };
}

/** What ending a turn in the store reaches. */
type ClosingDeps = RetryDeps &
  Pick<
    OutcomePosterDeps,
    'store' | 'progress' | 'metrics' | 'observer' | 'sessions' | 'finished' | 'stopPolling'
  >;

/** The end of a turn in the store and around the thread: the thread freed, the records cleared, or dropped. */
function createTurnClosing(deps: ClosingDeps, threadCheck: Pick<ThreadCheck, 'removeStrays'>) {
  const { ledger, store, progress, metrics } = deps;

  /**
   * Frees the thread for its next turn, recording what the machine decided the thread keeps, before
   * the outcome shows: whoever reads it and replies at once is never refused. Only once per turn (by
   * a retry a newer turn may own the thread). `record`: false when the outcome is given up on.
   */
  async function releaseThread(entry: TurnInFlight, record: boolean): Promise<void> {
    if (entry.released) return;
    const { turn } = entry;
    const change = record ? threadChangeOf(entry.state) : undefined;
    const thread = change ? await store.getThread(turn.threadKey) : undefined;
    if (thread && change?.kind === 'final') await ledger.saveFinal(thread, change.lastFinal);
    else if (thread && change?.kind === 'run-open') await ledger.saveRunOpen(thread, turn.startedAt);
    else if (thread && change?.kind === 'stopped') await ledger.saveStopped(thread);
    await ledger.threadLock(turn.threadKey, turn.turnId).release();
    entry.released = true;
  }

  /** Marks the turn delivered and clears its records, leases and progress indicator. */
  async function finish(entry: TurnInFlight, outcome: TurnOutcome | undefined): Promise<void> {
    const { turn } = entry;
    await ledger.markDelivered(turn.turnId);
    await ledger.clearTurn(turn);
    await deps.finished(entry);
    if (outcome) {
      metrics.turnFinished(outcome);
      deps.observer?.finished(turn, outcome);
    }
    await progress.end(turn, { clearStatus: outcome !== undefined && outcome !== 'done' });
    // Last (the text and session statuses share a slot; `active` must stay), beside: it never rejects.
    if (outcome !== undefined) void deps.sessions?.end(where(turn));
    await threadCheck.removeStrays(turn);
  }

  /**
   * A post that did not land (aborted: shutdown or takeover). Refused by Slack for good: polling
   * stops, the turn is dropped and the thread freed (retried).
   */
  async function notLanded(entry: TurnInFlight, result: Extract<RetryResult<unknown>, { ok: false }>) {
    if (result.reason !== 'permanent') return;
    const { threadKey, turnId, sessionId, channel } = entry.turn;
    deps.logger.warn(
      { threadKey, turnId, sessionId, channel, code: result.code },
      'Slack refused the outcome for good; turn dropped',
    );
    metrics.deliveryDropped(result.code);
    deps.stopPolling(turnId);
    await retrying(deps, entry, async () => {
      await releaseThread(entry, false);
      await finish(entry, 'undeliverable');
    });
  }

  return { releaseThread, finish, notLanded };
}

type RetryDeps = Pick<OutcomePosterDeps, 'ledger' | 'clock' | 'logger' | 'random'>;

/** Tries `attempt` until it lands; between tries the claim is let go and the thread read first. */
function retrying<T>(deps: RetryDeps, entry: TurnInFlight, attempt: (style: OutputStyle) => Promise<T>) {
  const { ledger, clock, logger } = deps;
  const random = deps.random ?? Math.random;
  const { turn } = entry;
  return deliverWhileTransient(attempt, {
    clock,
    signal: entry.abort.signal,
    random: deps.random,
    waitFor: (error) =>
      error instanceof ClaimedElsewhere ? CLAIM_RECHECK_MS * (0.75 + 0.5 * random()) : undefined,
    onRetry: async (error, attempts) => {
      entry.takenOver = true;
      // With the store down the claim stays ours: our next try takes it again, or it lapses.
      await ledger
        .deliveryClaim(turn.turnId)
        .release()
        .catch(() => undefined);
      if (error instanceof ClaimedElsewhere) return;
      const { threadKey, turnId } = turn;
      const code = outputFailureCode(error);
      logger.warn({ err: error, code, threadKey, turnId, attempts }, 'delivery failed; will retry');
    },
  });
}

function noticeOf(outcome: FinalOutcome): TurnNotice {
  if (outcome.kind === 'notice') return outcome.notice;
  return outcome.report.status === 'error'
    ? { kind: 'run-error', reason: outcome.report.message ?? '' }
    : { kind: 'canceled' };
}
