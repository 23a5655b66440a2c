import type { WebClient } from '@slack/web-api';
import type { ThreadOutput, TurnNotice } from '../conversation/thread-output-port.js';
import type { Metrics } from '../metrics.js';
import type { Logger } from '../runtime/logger.js';
import { answerPoster, threadPoster } from './answer-poster.js';
import { type CountedCall, countedCall } from './slack-errors.js';
import type { SlackIdentity } from './slack-identity.js';
import { NOTICE_EVENT_TYPE, PROGRESS_EVENT_TYPE, turnMessageFinder } from './turn-messages.js';
import { renderNotice, renderProgress, renderRefusal } from './views/notices.js';
import { noticeWithReceipt, renderReceipt } from './views/receipt.js';

/** A notice's metadata; `final: false` on a deadline notice that does not end the turn (waiters skip it). */
function noticePayload(notice: TurnNotice, turnId: string): Record<string, string | boolean> {
  const ongoing = notice.kind === 'deadline' && (notice.watchForMs ?? 0) > 0;
  return { turn_id: turnId, notice: notice.kind, ...(ongoing ? { final: false } : {}) };
}

/** The progress message of a turn: posted tagged with the turn id, updated, removed. */
function progressMessages(client: WebClient, call: CountedCall) {
  const post = threadPoster(client, call);
  return {
    async postProgress(where, progress, turnId) {
      const result = await post(where, {
        ...renderProgress(progress),
        metadata: { event_type: PROGRESS_EVENT_TYPE, event_payload: { turn_id: turnId } },
      });
      return result.ts;
    },
    async updateProgress(where, ts, progress) {
      await call('chat.update', () =>
        client.chat.update({ channel: where.channel, ts, ...renderProgress(progress) }),
      );
    },
    async removeProgress(where, ts) {
      await call('chat.delete', () => client.chat.delete({ channel: where.channel, ts }));
    },
  } satisfies Pick<ThreadOutput, 'postProgress' | 'updateProgress' | 'removeProgress'>;
}

/** The ThreadOutput on the Web API: it sends the views' renderings, counts errors, reads threads back. */
export function createSlackThreadOutput(deps: {
  client: WebClient;
  /** For progress: the Web client pauses its queue for a 429, which must not hold back an answer. */
  progressClient?: WebClient | undefined;
  identity: SlackIdentity;
  logger: Logger;
  metrics: Pick<Metrics, 'slackApiError'>;
  fileThresholdChars: number;
}): ThreadOutput {
  const { client } = deps;
  const call = countedCall(deps);
  const post = threadPoster(client, call);
  return {
    ...progressMessages(deps.progressClient ?? client, call),
    postAnswer: answerPoster(client, call, deps.fileThresholdChars),
    findTurnMessages: turnMessageFinder(client, deps.identity, call),

    async postNotice(where, notice, turnId, style = 'rich', receipt) {
      const plainView = renderNotice(notice);
      const view = receipt
        ? noticeWithReceipt(plainView, renderReceipt({ kind: 'notice', notice }, receipt, turnId))
        : plainView;
      // No previews either: a notice may quote the service's own words (an error message).
      await post(where, {
        text: view.text,
        ...(style === 'rich' ? { blocks: view.blocks } : {}),
        metadata: { event_type: NOTICE_EVENT_TYPE, event_payload: noticePayload(notice, turnId) },
      });
    },

    async refuse(where, userId, sourceTs, refusal, detail) {
      const { channel } = where;
      const view = renderRefusal(refusal, detail);
      await call('chat.postEphemeral', () =>
        client.chat.postEphemeral({ channel, user: userId, thread_ts: where.threadTs, ...view }),
      );
      if (refusal === 'busy') {
        await call('reactions.add', () =>
          client.reactions.add({ channel, timestamp: sourceTs, name: 'hourglass_flowing_sand' }),
        ).catch(() => undefined);
      }
    },
  };
}
