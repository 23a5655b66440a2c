import type { Logger } from '../../runtime/logger.js';
import type { AnswerPlacement } from '../access/answer-place.js';
import { isDirectMessage, type OutsiderReason } from '../access/audience.js';
import type { ThreadLocation } from '../thread-output-port.js';
import type { TurnRecord } from './turn-records.js';

/**
 * Who can read the conversation, asked again just before service data (an answer, a notice quoting
 * the service) is posted (DESIGN "Audience at every post"): the channel may have been shared while
 * the agent worked (`channel_shared` drops the cached verdict). If outsiders can read it now, a
 * person's answer goes to the asker's DM (answer-place.ts); an alert investigation's, or one whose
 * DM Slack would not open, is withheld and the thread says why.
 */
export type PostPlace =
  | { kind: 'here' }
  | { kind: 'private'; where: ThreadLocation; reason: OutsiderReason }
  | { kind: 'withheld'; reason: OutsiderReason };

export interface AudienceAtPost {
  placeFor(turn: TurnRecord): Promise<PostPlace>;
}

/** Nothing is checked again (tests of delivery alone, OUTSIDER_AUDIENCE=thread has the same effect). */
export const postHere: AudienceAtPost = { placeFor: async () => ({ kind: 'here' }) };

export function createAudienceAtPost(deps: {
  placement: Pick<AnswerPlacement, 'decide' | 'moveToPrivate'>;
  logger: Logger;
}): AudienceAtPost {
  return {
    async placeFor(turn) {
      // A DM with the bot (a private thread included) is never read by anyone else.
      if (isDirectMessage(turn.channel)) return { kind: 'here' };
      const placement = await deps.placement.decide(turn.channel);
      // `thread` policy (the organisation accepts it) or nobody outside: as before.
      if (placement.kind === 'here') return placement;
      const { reason } = placement;
      const fields = { threadKey: turn.threadKey, turnId: turn.turnId, reason };
      if (turn.alertAt !== undefined) {
        deps.logger.info(fields, 'conversation became outsider-readable; investigation answer withheld');
        return { kind: 'withheld', reason };
      }
      const { teamId, channel, threadTs, sourceTs } = turn;
      // The question is not kept with the turn: the quote links to it instead of repeating it.
      const origin = { teamId, channel, threadTs, sourceTs };
      const moved = await deps.placement.moveToPrivate(origin, turn.userId, '', reason);
      if (!moved.moved) return { kind: 'withheld', reason };
      deps.logger.info(fields, 'conversation became outsider-readable; answer moved to a direct message');
      return { kind: 'private', where: moved.where, reason };
    },
  };
}
