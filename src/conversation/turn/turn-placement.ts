import type { AnswerPlacement } from '../access/answer-place.js';
import type { OutsiderReason } from '../access/audience.js';
import type { TurnContext } from '../context/turn-context.js';
import type { RefusalTeller } from './refusal-teller.js';
import type { ReadyTurn } from './run-start.js';
import type { ThreadRecord } from './turn-records.js';
import type { TurnRequest } from './turn-request.js';

export interface TurnPlacementDeps {
  /** The agent, thread context and time range of a turn (see turn-context.ts). */
  context: Pick<TurnContext, 'prepare'>;
  /** Where the answer goes when outsiders can read the conversation (see answer-place.ts). */
  placement: AnswerPlacement;
  refusals: Pick<RefusalTeller, 'tell'>;
}

export type PlacedTurn =
  | { kind: 'refused' }
  | { kind: 'ready'; request: TurnRequest; thread: ThreadRecord | undefined; prepared: ReadyTurn };

/** A turn's context and where its answer goes; refusals are told here. */
export function createTurnPlacement(deps: TurnPlacementDeps) {
  const { refusals } = deps;

  async function place(asked: TurnRequest, askedThread: ThreadRecord | undefined): Promise<PlacedTurn> {
    const prepared = await deps.context.prepare(asked, askedThread);
    if (prepared.kind === 'refused') {
      refusals.tell(asked, prepared.refusal);
      return { kind: 'refused' };
    }
    const placement = await deps.placement.decide(asked.channel);
    if (placement.kind === 'refused') {
      refusals.tell(asked, 'outsider-audience', { audience: placement.reason });
      return { kind: 'refused' };
    }
    const placed =
      placement.kind === 'private'
        ? await movePrivately(asked, placement.reason)
        : { request: asked, thread: askedThread };
    return placed ? { kind: 'ready', ...placed, prepared } : { kind: 'refused' };
  }

  /**
   * Moves the question to the asker's DM (OUTSIDER_AUDIENCE=dm): the turn lives in the private thread
   * from now on. Undefined (the asker told why) when Slack would not open the DM.
   */
  async function movePrivately(asked: TurnRequest, reason: OutsiderReason) {
    const { teamId, channel, threadTs, sourceTs } = asked;
    const origin = { teamId, channel, threadTs, sourceTs };
    const moved = await deps.placement.moveToPrivate(origin, asked.userId, asked.prompt, reason);
    if (!moved.moved) {
      refusals.tell(asked, 'private-thread-failed', { audience: reason });
      return undefined;
    }
    const where = moved.where;
    const request = { ...asked, channel: where.channel, threadTs: where.threadTs, sourceTs: where.threadTs };
    return { request, thread: undefined };
  }

  return { place };
}
