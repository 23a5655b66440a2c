import type { Clock } from '../../runtime/clock.js';
import { boundLogger, type Logger } from '../../runtime/logger.js';
import type { ConversationStore, RunStatusReport } from '../ports.js';
import type { OutputStyle, ThreadLocation, ThreadOutput, TurnNotice } from '../thread-output-port.js';
import { type AudienceAtPost, type PostPlace, postHere } from './audience-at-post.js';
import type { ThreadCheck } from './thread-check.js';
import { answerRef, type TurnInFlight, where } from './turn-in-flight.js';
import { receiptOf } from './turn-receipt.js';
import type { TurnRecord } from './turn-records.js';

export interface AnswerPostDeps {
  store: Pick<ConversationStore, 'indexAnswer'>;
  output: Pick<ThreadOutput, 'postAnswer' | 'postNotice'>;
  threadCheck: Pick<ThreadCheck, 'look'>;
  clock: Clock;
  logger: Logger;
  /** Who reads the thread, asked again before service data is posted. @default not asked again */
  audienceAtPost?: AudienceAtPost | undefined;
}

/** The thread a post goes to: the turn's own, or the asker's private thread. */
export const targetOf = (turn: TurnRecord, place: PostPlace): ThreadLocation =>
  place.kind === 'private' ? place.where : where(turn);

export const logOf = (logger: Logger, turn: TurnRecord) =>
  boundLogger(logger, { threadKey: turn.threadKey, sessionId: turn.sessionId, turnId: turn.turnId });

/** Posting an answer where its readers allow (DESIGN "Audience at every post"), and indexing its parts. */
export function createAnswerPost(deps: AnswerPostDeps) {
  const { store, output, clock, logger } = deps;

  /** Decided once per turn just before its first post: a retry posts where the first attempt decided. */
  async function placeFor(entry: TurnInFlight): Promise<PostPlace> {
    entry.postPlace ??= await (deps.audienceAtPost ?? postHere).placeFor(entry.turn);
    return entry.postPlace;
  }

  /** Posts the answer (unless a look at the thread finds it there already), or the withheld notice. */
  async function postAnswer(entry: TurnInFlight, report: RunStatusReport, late: boolean, style: OutputStyle) {
    const { turn } = entry;
    const place = await placeFor(entry);
    const receipt = () => receiptOf(turn, clock.now(), report.totalSteps ?? entry.steps);
    if (place.kind === 'withheld') {
      const notice: TurnNotice = { kind: 'withheld', reason: place.reason };
      await output.postNotice(where(turn), notice, turn.turnId, style, receipt());
      logOf(logger, turn).info(
        { reason: place.reason },
        'answer withheld: the conversation became outsider-readable',
      );
      return;
    }
    const target = targetOf(turn, place);
    const already =
      entry.takenOver && place.kind === 'here' ? (await deps.threadCheck.look(turn)).answer : [];
    const answer = {
      markdown: report.message ?? '',
      turnId: turn.turnId,
      notes: turn.filesNotSent ? ['files-not-sent' as const] : [],
      files: turn.files,
      timerange: turn.timerange,
      style,
      lateAfterMs: late ? clock.now() - turn.startedAt : undefined,
      receipt: receipt(),
    };
    const parts =
      already.length > 0
        ? already
        : await output.postAnswer(target, answer, (ts) => indexEarly(turn, target.channel, ts));
    await Promise.all(parts.map((ts) => store.indexAnswer(target.channel, ts, answerRef(turn))));
    const moved = place.kind === 'private' ? { movedPrivately: place.reason } : {};
    const fields = { parts: parts.length, chars: report.message?.length ?? 0, style, ...moved };
    logOf(logger, turn).info(
      { ...fields, foundInThread: already.length > 0 },
      late ? 'late answer delivered' : 'answer delivered',
    );
  }

  /**
   * Indexes a part as soon as Slack took it (a reaction finds its run at once). Best effort: a retry
   * would show the first parts twice; every part is indexed again once the answer is complete.
   */
  async function indexEarly(turn: TurnRecord, channel: string, ts: string): Promise<void> {
    await store.indexAnswer(channel, ts, answerRef(turn)).catch((error: unknown) => {
      logger.warn(
        { err: error, threadKey: turn.threadKey, turnId: turn.turnId },
        'answer part not indexed yet',
      );
    });
  }

  return { placeFor, postAnswer };
}
