import type { ConversationsRepliesResponse, WebClient } from '@slack/web-api';
import type {
  Progress,
  Refusal,
  ThreadLocation,
  ThreadOutput,
  TurnMessages,
  TurnNotice,
} from '../conversation/thread-output-port.js';
import type { Metrics } from '../metrics.js';
import type { Logger } from '../runtime/logger.js';
import { NO_PREVIEWS } from './no-previews.js';
import { toThreadOutputError } from './slack-errors.js';
import type { SlackIdentity } from './slack-identity.js';
import { describeFiles } from './views/file-footer.js';
import {
  renderAnswerNotes,
  renderLateNote,
  renderNotice,
  renderProgress,
  renderRefusal,
} from './views/notices.js';
import { noticeWithReceipt, renderReceipt } from './views/receipt.js';
import { renderAnswer, renderPlainAnswer } from './views/render-answer.js';
import { describeTimeRange } from './views/time-range-footer.js';

/** Answer messages carry this metadata type, with the turn id, so a thread can be checked. */
export const ANSWER_EVENT_TYPE = 'agent_answer';
/** Progress messages carry the turn id too: a successor finds one a dead replica posted but never saved. */
export const PROGRESS_EVENT_TYPE = 'agent_progress';
/** Notices carry the turn id and their kind, so a retry can see one already posted. */
export const NOTICE_EVENT_TYPE = 'agent_notice';

/** A notice's metadata; `final: false` on a deadline notice that does not end the turn (waiters skip it). */
function noticePayload(notice: TurnNotice, turnId: string): Record<string, string | boolean> {
  const ongoing = notice.kind === 'deadline' && (notice.watchForMs ?? 0) > 0;
  return { turn_id: turnId, notice: notice.kind, ...(ongoing ? { final: false } : {}) };
}

type ThreadMessage = {
  ts?: string;
  user?: string;
  bot_id?: string;
  metadata?: { event_type?: string; event_payload?: Record<string, unknown> };
};

/** Sorts the bot's messages that carry `turnId` into answer parts, notices and progress messages. */
function turnMessagesOf(messages: ThreadMessage[], turnId: string): TurnMessages {
  const parts: Array<{ ts: string; part: number; parts: number }> = [];
  const found: TurnMessages = { answer: [], notices: [], progress: [] };
  for (const { ts, metadata } of messages) {
    const payload = metadata?.event_payload;
    if (!ts || payload?.turn_id !== turnId) continue;
    if (metadata?.event_type === ANSWER_EVENT_TYPE)
      parts.push({ ts, part: Number(payload.part), parts: Number(payload.parts) });
    else if (metadata?.event_type === NOTICE_EVENT_TYPE)
      found.notices.push(payload.notice as TurnNotice['kind']);
    else if (metadata?.event_type === PROGRESS_EVENT_TYPE) found.progress.push(ts);
  }
  // Only a complete answer counts as posted; a partial one is posted again in full.
  const expected = parts[0]?.parts ?? 0;
  if (expected > 0 && new Set(parts.map((item) => item.part)).size === expected)
    found.answer = parts.map((item) => item.ts);
  return found;
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
  const { client, identity, logger, metrics } = deps;
  const progressClient = deps.progressClient ?? client;

  /** Runs one Web API call; a failure is counted and rethrown classified (slack-errors.ts). */
  async function call<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const failure = toThreadOutputError(method, error);
      metrics.slackApiError(method, failure.code);
      // A passing failure is logged by the retrying caller; a refusal here, naming the method.
      const level = failure.kind === 'transient' ? 'debug' : 'warn';
      logger[level]({ method, error: failure.code, kind: failure.kind }, 'Slack API call failed');
      throw failure;
    }
  }

  /** The bot's own messages in a thread, every page, with their metadata. */
  function botMessagesIn(where: ThreadLocation): Promise<ThreadMessage[]> {
    return call('conversations.replies', async () => {
      const mine: ThreadMessage[] = [];
      const pages = client.paginate('conversations.replies', {
        channel: where.channel,
        ts: where.threadTs,
        include_all_metadata: true,
        limit: 200,
      });
      for await (const page of pages) {
        for (const message of ((page as ConversationsRepliesResponse).messages ?? []) as ThreadMessage[]) {
          if (message.user === identity.botUserId || message.bot_id === identity.botId) mine.push(message);
        }
      }
      return mine;
    });
  }

  return {
    async postProgress(where: ThreadLocation, progress: Progress, turnId: string) {
      const result = await call('chat.postMessage', () =>
        progressClient.chat.postMessage({
          channel: where.channel,
          thread_ts: where.threadTs,
          ...renderProgress(progress),
          metadata: { event_type: PROGRESS_EVENT_TYPE, event_payload: { turn_id: turnId } },
          ...NO_PREVIEWS,
        }),
      );
      return result.ts;
    },

    async updateProgress(where, ts, progress) {
      await call('chat.update', () =>
        progressClient.chat.update({ channel: where.channel, ts, ...renderProgress(progress) }),
      );
    },

    async removeProgress(where, ts) {
      await call('chat.delete', () => progressClient.chat.delete({ channel: where.channel, ts }));
    },

    async postAnswer(where, answer, onPart) {
      const render = answer.style === 'plain' ? renderPlainAnswer : renderAnswer;
      const rendered = render(answer.markdown, {
        fileThresholdChars: deps.fileThresholdChars,
        footer: [
          ...renderAnswerNotes(answer.notes ?? []),
          ...describeFiles(answer.files),
          ...describeTimeRange(answer.timerange),
        ],
        feedbackButtons: true,
        metadata: { event_type: ANSWER_EVENT_TYPE, event_payload: { turn_id: answer.turnId } },
        feedbackTurnId: answer.turnId,
        note: answer.lateAfterMs === undefined ? undefined : renderLateNote(answer.lateAfterMs),
        receipt: answer.receipt
          ? renderReceipt(
              { kind: 'answer', late: answer.lateAfterMs !== undefined },
              answer.receipt,
              answer.turnId,
            )
          : undefined,
      });
      const parts: string[] = [];
      // In order, one at a time: Slack allows about one message a second per channel (429s waited out).
      for (const message of rendered.messages) {
        const result = await call('chat.postMessage', () =>
          client.chat.postMessage({
            channel: where.channel,
            thread_ts: where.threadTs,
            text: message.text,
            // The plain rendering (after Slack refused the rich one) is its text alone.
            ...(message.blocks.length > 0
              ? {
                  blocks: [
                    ...(message.receipt ? [message.receipt] : []),
                    ...message.blocks,
                    ...(message.feedback ? [message.feedback] : []),
                  ] as never,
                }
              : {}),
            ...(message.metadata ? { metadata: message.metadata } : {}),
            ...NO_PREVIEWS,
          }),
        );
        if (!result.ts) continue;
        parts.push(result.ts);
        await onPart?.(result.ts);
      }
      const { file } = rendered;
      if (file) {
        await call('files.uploadV2', () =>
          client.filesUploadV2({ channel_id: where.channel, thread_ts: where.threadTs, ...file }),
        );
      }
      return parts;
    },

    async postNotice(where, notice: TurnNotice, turnId, style = 'rich', receipt) {
      const plainView = renderNotice(notice);
      const view = receipt
        ? noticeWithReceipt(plainView, renderReceipt({ kind: 'notice', notice }, receipt, turnId))
        : plainView;
      await call('chat.postMessage', () =>
        client.chat.postMessage({
          channel: where.channel,
          thread_ts: where.threadTs,
          text: view.text,
          ...(style === 'rich' ? { blocks: view.blocks } : {}),
          metadata: { event_type: NOTICE_EVENT_TYPE, event_payload: noticePayload(notice, turnId) },
          // A notice may quote the service's own words (an error message).
          ...NO_PREVIEWS,
        }),
      );
    },

    async refuse(where, userId, sourceTs, refusal: Refusal, detail) {
      const view = renderRefusal(refusal, detail);
      await call('chat.postEphemeral', () =>
        client.chat.postEphemeral({
          channel: where.channel,
          user: userId,
          thread_ts: where.threadTs,
          ...view,
        }),
      );
      if (refusal === 'busy') {
        await call('reactions.add', () =>
          client.reactions.add({
            channel: where.channel,
            timestamp: sourceTs,
            name: 'hourglass_flowing_sand',
          }),
        ).catch(() => undefined);
      }
    },

    async findTurnMessages(where, turnId) {
      return turnMessagesOf(await botMessagesIn(where), turnId);
    },
  };
}
