import type { Clock } from '../../runtime/clock.js';
import type { Logger } from '../../runtime/logger.js';
import { boundLogger } from '../../runtime/logger.js';
import type { AgentSessions } from '../agent-session.js';
import type { ConversationMetrics, ConversationStore, RunStatusReport } from '../ports.js';
import type { OutputStyle, ThreadLocation, ThreadOutput, TurnNotice } from '../thread-output-port.js';
import { type AudienceAtPost, type PostPlace, postHere } from './audience-at-post.js';
import { deliverWhileTransient, type RetryResult } from './outcome-retry.js';
import { outputFailureCode } from './output-error.js';
import { createThreadCheck } from './thread-check.js';
import { answerRef, type FinalOutcome, type TurnInFlight, where } from './turn-in-flight.js';
import { DELIVERY_CLAIM_TTL_MS, type TurnLedger } from './turn-ledger.js';
import { transition } from './turn-machine.js';
import type { TurnObserver } from './turn-observer.js';
import type { TurnProgress } from './turn-progress.js';
import { receiptOf } from './turn-receipt.js';
import type { TurnOutcome, TurnRecord } from './turn-records.js';

const HERE: PostPlace = { kind: 'here' };

/** Notices that quote the service's own words (an agent's error, the service's error message). */
const quotesTheService = (notice: TurnNotice) =>
  notice.kind === 'run-error' || notice.kind === 'service-error';

/** The thread a post goes to: the turn's own, or the asker's private thread. */
const targetOf = (turn: TurnRecord, place: PostPlace): ThreadLocation =>
  place.kind === 'private' ? place.where : where(turn);

export interface OutcomeDelivererDeps {
  ledger: TurnLedger;
  store: Pick<ConversationStore, 'getThread' | 'indexAnswer'>;
  /** The Slack side: posting, and reading the thread for what already landed. */
  output: Pick<ThreadOutput, 'postAnswer' | 'postNotice' | 'findTurnMessages' | 'removeProgress'>;
  progress: Pick<TurnProgress, 'settle' | 'end'>;
  sessions?: Pick<AgentSessions, 'end'> | undefined;
  clock: Clock;
  logger: Logger;
  metrics: Pick<
    ConversationMetrics,
    'deliveryLatency' | 'deliveryDropped' | 'turnFinished' | 'timeToVerdict'
  >;
  /** True while `turn` is still this instance's (not untracked, not replaced by a takeover). */
  isCurrent(turn: TurnInFlight): boolean;
  /** The turn is over here: stop polling it and forget it. */
  onFinished(turn: TurnInFlight): void;
  /** The outcome is given up on: polling it is pointless from now on. */
  stopPolling(turnId: string): void;
  /** Default `Math.random` (the jitter of delivery retries). */
  random?: (() => number) | undefined;
  /** Told when the outcome is posted. */
  observer?: Pick<TurnObserver, 'finished'> | undefined;
  /** Who reads the thread, asked again before service data is posted. @default not asked again */
  audienceAtPost?: AudienceAtPost | undefined;
}

/**
 * How often a replica waiting on another's delivery claim looks again. Steady, not backed off: the
 * holder that died mid-post leaves the outcome late by its claim's TTL plus about this, not by a
 * backoff that has grown to half a minute.
 */
const CLAIM_RECHECK_MS = 1_000;

/** Another replica holds this turn's delivery claim: wait, then look again. */
class ClaimedElsewhere extends Error {
  constructor() {
    super('delivery claimed by another instance');
    this.name = 'ClaimedElsewhere';
  }
}

/**
 * Posts what the turn machine decided ends a turn — the answer, the agent's error or cancel, the
 * deadline and watch-ended notices, a failed start, a lost turn — the same way: retried while
 * Slack fails transiently, in the plain style once if Slack refuses the rendering, given up at
 * once (turn dropped, thread released, one `warn`) if Slack refuses for good, and exactly once
 * (delivery claim + delivered mark, and after a takeover or a failed post a look at the thread
 * for what already landed).
 *
 * Exactly once, and the window we accept. `chat.postMessage` has no idempotency key, so posting
 * and marking can never be one atomic step. The order is: claim (`delivery:<turn>`, SET NX PX,
 * {@link DELIVERY_CLAIM_TTL_MS}) → post → mark delivered → clear. While a claim is held no other
 * replica posts, however slow the post (another replica waits until the delivered mark appears or
 * the claim lapses). Whoever posts after a takeover or a failed attempt first reads the thread
 * (`conversations.replies`) for the answer parts or the notice tagged with the turn id, and for
 * progress messages its record does not name (removed when the turn ends: thread-check.ts). What
 * remains:
 * - the holder dies mid-post: the outcome is late by up to the claim's TTL (never lost);
 * - a multi-part answer cut off part-way is posted again in full (the first parts show twice);
 * - a post Slack accepted but does not yet list in `conversations.replies` is posted again.
 */
export function createOutcomeDeliverer(deps: OutcomeDelivererDeps) {
  const { ledger, store, output, progress, clock, logger, metrics } = deps;
  const threadCheck = createThreadCheck({ output, logger });

  /** Delivers what ends the turn, retrying while Slack fails transiently; then clears the turn. */
  async function deliver(entry: TurnInFlight, outcome: FinalOutcome): Promise<void> {
    await entry.noticeChain;
    if (!deps.isCurrent(entry)) return;
    const seenAt = clock.now();
    const result = await retrying(entry, (style) => deliverOnce(entry, outcome, style));
    if (result.ok) {
      // Counted where the answer was posted: `value` is false when another replica had posted it.
      if (result.value && outcome.kind === 'report' && outcome.report.status === 'done') {
        metrics.deliveryLatency(clock.now() - seenAt);
        const { alertAt } = entry.turn;
        if (alertAt !== undefined) metrics.timeToVerdict(clock.now() - alertAt);
      }
      return;
    }
    if (result.reason === 'permanent') await dropUndeliverable(entry, result.code);
  }

  /** One delivery attempt. Returns false when another instance had already delivered it. */
  async function deliverOnce(
    entry: TurnInFlight,
    outcome: FinalOutcome,
    style: OutputStyle,
  ): Promise<boolean> {
    const { turn } = entry;
    if (await ledger.isDelivered(turn.turnId)) {
      await finish(entry, undefined);
      return false;
    }
    if (!(await ledger.deliveryClaim(turn.turnId).take(DELIVERY_CLAIM_TTL_MS))) throw new ClaimedElsewhere();
    await progress.settle(turn.turnId);
    await releaseThread(entry, true);
    if (outcome.kind === 'report' && outcome.report.status === 'done') {
      await postAnswer(entry, outcome.report, outcome.late, style);
      await finish(entry, 'done');
      return true;
    }
    const notice = noticeOf(outcome);
    const posted = entry.takenOver && (await threadCheck.look(turn)).notices.includes(notice.kind);
    const steps = outcome.kind === 'report' ? (outcome.report.totalSteps ?? entry.steps) : entry.steps;
    const receipt = receiptOf(turn, clock.now(), steps);
    if (!posted) {
      const place = quotesTheService(notice) ? await placeFor(entry) : HERE;
      const shown: TurnNotice =
        place.kind === 'withheld' ? { kind: 'withheld', reason: place.reason } : notice;
      await output.postNotice(targetOf(turn, place), shown, turn.turnId, style, receipt);
    }
    logOf(turn).info({ notice: notice.kind, style }, 'turn ended without an answer');
    await finish(entry, outcome.kind === 'report' ? (outcome.report.status as TurnOutcome) : outcome.outcome);
    return true;
  }

  /**
   * Where service data goes, decided once per turn just before its first post (DESIGN "Audience at
   * every post"): a retry posts where the first attempt decided, so one DM and one note at most.
   */
  async function placeFor(entry: TurnInFlight): Promise<PostPlace> {
    entry.postPlace ??= await (deps.audienceAtPost ?? postHere).placeFor(entry.turn);
    return entry.postPlace;
  }

  /**
   * Posts the answer (unless a look at the thread finds it there already) and indexes its parts:
   * where the conversation's readers allow now, or only the withheld notice.
   */
  async function postAnswer(entry: TurnInFlight, report: RunStatusReport, late: boolean, style: OutputStyle) {
    const { turn } = entry;
    const place = await placeFor(entry);
    if (place.kind === 'withheld') {
      const receipt = receiptOf(turn, clock.now(), report.totalSteps ?? entry.steps);
      const notice: TurnNotice = { kind: 'withheld', reason: place.reason };
      await output.postNotice(where(turn), notice, turn.turnId, style, receipt);
      logOf(turn).info(
        { reason: place.reason },
        'answer withheld: the conversation became outsider-readable',
      );
      return;
    }
    const target = targetOf(turn, place);
    const already = entry.takenOver && place.kind === 'here' ? (await threadCheck.look(turn)).answer : [];
    const answer = {
      markdown: report.message ?? '',
      turnId: turn.turnId,
      notes: turn.filesNotSent ? ['files-not-sent' as const] : [],
      files: turn.files,
      timerange: turn.timerange,
      style,
      lateAfterMs: late ? clock.now() - turn.startedAt : undefined,
      receipt: receiptOf(turn, clock.now(), report.totalSteps ?? entry.steps),
    };
    const parts =
      already.length > 0
        ? already
        : await output.postAnswer(target, answer, (ts) => indexEarly(turn, target.channel, ts));
    await Promise.all(parts.map((ts) => store.indexAnswer(target.channel, ts, answerRef(turn))));
    logOf(turn).info(
      {
        parts: parts.length,
        chars: report.message?.length ?? 0,
        foundInThread: already.length > 0,
        style,
        ...(place.kind === 'private' ? { movedPrivately: place.reason } : {}),
      },
      late ? 'late answer delivered' : 'answer delivered',
    );
  }

  function logOf(turn: TurnRecord) {
    return boundLogger(logger, { threadKey: turn.threadKey, sessionId: turn.sessionId, turnId: turn.turnId });
  }

  function noticeOf(outcome: FinalOutcome): TurnNotice {
    if (outcome.kind === 'notice') return outcome.notice;
    return outcome.report.status === 'error'
      ? { kind: 'run-error', reason: outcome.report.message ?? '' }
      : { kind: 'canceled' };
  }

  /** The "still working, still watching" notice: delivered like an outcome, but the turn goes on. */
  async function postDeadlineNotice(entry: TurnInFlight): Promise<void> {
    const { turn } = entry;
    await progress.settle(turn.turnId);
    const notice: TurnNotice = {
      kind: 'deadline',
      waitedMs: clock.now() - turn.startedAt,
      watchForMs: Math.max(0, (turn.watchUntil ?? 0) - clock.now()),
    };
    const result = await retrying(entry, async (style) => {
      if (entry.takenOver && (await threadCheck.look(turn)).notices.includes('deadline')) return;
      await output.postNotice(
        where(turn),
        notice,
        turn.turnId,
        style,
        receiptOf(turn, clock.now(), entry.steps),
      );
    });
    if (!result.ok) {
      if (result.reason === 'permanent') await dropUndeliverable(entry, result.code);
      return;
    }
    entry.turn = { ...entry.turn, deadlineNoticed: true, progressTs: undefined };
    if (deps.isCurrent(entry)) await ledger.saveTurn(entry.turn);
    // The indicator said "working"; from now on the notice says it, and no progress is shown.
    if (turn.progressTs) await output.removeProgress(where(turn), turn.progressTs).catch(() => undefined);
    await threadCheck.removeStrays(turn);
  }

  /** Tries `attempt` until it lands; between tries the claim is let go and the thread read first. */
  function retrying<T>(
    entry: TurnInFlight,
    attempt: (style: OutputStyle) => Promise<T>,
  ): Promise<RetryResult<T>> {
    const { turn } = entry;
    return deliverWhileTransient(attempt, {
      clock,
      signal: entry.abort.signal,
      random: deps.random,
      waitFor: (error) =>
        error instanceof ClaimedElsewhere
          ? CLAIM_RECHECK_MS * (0.75 + 0.5 * (deps.random ?? Math.random)())
          : undefined,
      onRetry: async (error, attempts) => {
        entry.takenOver = true;
        // With the store down the claim stays ours: our next try takes it again, or it lapses.
        await ledger
          .deliveryClaim(turn.turnId)
          .release()
          .catch(() => undefined);
        if (error instanceof ClaimedElsewhere) return;
        const code = outputFailureCode(error);
        const fields = { err: error, code, threadKey: turn.threadKey, turnId: turn.turnId, attempts };
        logger.warn(fields, 'delivery failed; will retry');
      },
    });
  }

  /**
   * Slack refused the outcome for good (the bot left the channel, the token was revoked…): nothing
   * more can be shown in this thread, so stop polling, drop the turn and free the thread.
   */
  async function dropUndeliverable(entry: TurnInFlight, code: string): Promise<void> {
    const { turn } = entry;
    const { threadKey, turnId, sessionId, channel } = turn;
    logger.warn(
      { threadKey, turnId, sessionId, channel, code },
      'Slack refused the outcome for good; turn dropped',
    );
    metrics.deliveryDropped(code);
    deps.stopPolling(turnId);
    // The store may be down as well: the thread is freed and the turn cleared once it answers.
    await retrying(entry, async () => {
      await releaseThread(entry, false);
      // One try at the progress indicator (it fails too when the bot left the channel).
      await finish(entry, 'undeliverable');
    });
  }

  /**
   * Frees the thread for its next turn (recording what the machine decided the thread keeps: the
   * final status the stale rule compares with, or that the run was left open) before the outcome
   * shows: whoever reads it and replies at once is never refused. Only once per turn: by a retry
   * a newer turn may own the thread. `record`: false when the outcome is given up on.
   */
  async function releaseThread(entry: TurnInFlight, record: boolean): Promise<void> {
    if (entry.released) return;
    const { turn, state } = entry;
    const change = record && state.phase === 'delivering' ? state.thread : undefined;
    const thread = change ? await store.getThread(turn.threadKey) : undefined;
    if (thread && change?.kind === 'final') {
      await ledger.saveFinal(thread, change.lastFinal);
    } else if (thread && change?.kind === 'run-open') {
      await ledger.saveRunOpen(thread, turn.startedAt);
    } else if (thread && change?.kind === 'stopped') {
      await ledger.saveStopped(thread);
    }
    await ledger.threadLock(turn.threadKey, turn.turnId).release();
    entry.released = true;
  }

  /**
   * Indexes one answer part as soon as Slack accepted it, so a reaction or click on it finds its run
   * while later parts are still on their way (a long answer, a 429 between parts). Best effort:
   * a failure here must not fail the post (a retry would show the first parts twice); the index is
   * written again for every part once the answer is complete.
   */
  async function indexEarly(turn: TurnRecord, channel: string, ts: string): Promise<void> {
    await store
      .indexAnswer(channel, ts, answerRef(turn))
      .catch((error: unknown) =>
        logger.warn(
          { err: error, threadKey: turn.threadKey, turnId: turn.turnId },
          'answer part not indexed yet',
        ),
      );
  }

  /** Marks the turn delivered and clears its records, leases and progress indicator. */
  async function finish(entry: TurnInFlight, outcome: TurnOutcome | undefined): Promise<void> {
    const { turn } = entry;
    entry.state = transition(entry.state, { type: 'delivered' }).state;
    await ledger.markDelivered(turn.turnId);
    await ledger.clearTurn(turn);
    deps.onFinished(entry);
    if (outcome) {
      metrics.turnFinished(outcome);
      deps.observer?.finished(turn, outcome);
    }
    await progress.end(turn, { clearStatus: outcome !== undefined && outcome !== 'done' });
    // Last (the text status and the session status write the same slot, and `active` must stay),
    // beside the caller: the outcome is in, and the session call never rejects.
    if (outcome !== undefined) void deps.sessions?.end(where(turn));
    await threadCheck.removeStrays(turn);
  }

  return {
    deliver,
    postDeadlineNotice,
    /** Another instance owns the turn now: what it finds in the thread is its own business. */
    forget: threadCheck.forget,
  };
}

export type OutcomeDeliverer = ReturnType<typeof createOutcomeDeliverer>;
