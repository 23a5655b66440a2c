import type { WebClient } from '@slack/web-api';
import type {
  Logger,
  Progress,
  Refusal,
  ThreadLocation,
  ThreadOutput,
  TurnNotice,
} from '../conversation/ports.js';
import type { Metrics } from '../metrics.js';
import type { SlackIdentity } from './app.js';
import { renderAnswerNotes, renderNotice, renderProgress, renderRefusal } from './views/notices.js';
import { renderAnswer } from './views/render-answer.js';
import { describeTimeRange } from './views/time-range-footer.js';

/** Answer messages carry this metadata type, with the turn id, so a thread can be checked. */
export const ANSWER_EVENT_TYPE = 'agent_answer';
/** Progress messages are tagged too, so tools (and tests) can tell them from answers. */
export const PROGRESS_EVENT_TYPE = 'agent_progress';

/**
 * The conversation layer's ThreadOutput on the Slack Web API. Rendering is the views'; this
 * file only sends, records Slack errors in metrics, and reads the thread back after a takeover.
 */
export function createSlackThreadOutput(deps: {
  client: WebClient;
  identity: SlackIdentity;
  logger: Logger;
  metrics: Pick<Metrics, 'slackApiError'>;
  fileThresholdChars: number;
}): ThreadOutput {
  const { client, identity, logger, metrics } = deps;

  async function call<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const code =
        (error as { data?: { error?: string } }).data?.error ??
        (error as { code?: string }).code ??
        'unknown';
      metrics.slackApiError(method, code);
      logger.warn({ method, error: code }, 'Slack API call failed');
      throw error;
    }
  }

  return {
    async postProgress(where: ThreadLocation, progress: Progress) {
      const view = renderProgress(progress);
      const result = await call('chat.postMessage', () =>
        client.chat.postMessage({
          channel: where.channel,
          thread_ts: where.threadTs,
          ...view,
          metadata: { event_type: PROGRESS_EVENT_TYPE, event_payload: {} },
        }),
      );
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

    async postAnswer(where, answer) {
      const rendered = renderAnswer(answer.markdown, {
        fileThresholdChars: deps.fileThresholdChars,
        footer: [...renderAnswerNotes(answer.notes ?? []), ...describeTimeRange(answer.timerange)],
        feedbackButtons: true,
        metadata: { event_type: ANSWER_EVENT_TYPE, event_payload: { turn_id: answer.turnId } },
      });
      const parts: string[] = [];
      // In order, one at a time: Slack allows about one message a second per channel, and the
      // Web client waits out any 429 for us.
      for (const message of rendered.messages) {
        const result = await call('chat.postMessage', () =>
          client.chat.postMessage({
            channel: where.channel,
            thread_ts: where.threadTs,
            text: message.text,
            blocks: [...message.blocks, ...(message.feedback ? [message.feedback] : [])] as never,
            ...(message.metadata ? { metadata: message.metadata } : {}),
            unfurl_links: false,
            unfurl_media: false,
          }),
        );
        if (result.ts) parts.push(result.ts);
      }
      if (rendered.file) {
        const file = rendered.file;
        await call('files.uploadV2', () =>
          client.filesUploadV2({
            channel_id: where.channel,
            thread_ts: where.threadTs,
            filename: file.filename,
            title: file.title,
            content: file.content,
          }),
        );
      }
      return parts;
    },

    async postNotice(where, notice: TurnNotice, turnId) {
      const view = renderNotice(notice);
      await call('chat.postMessage', () =>
        client.chat.postMessage({
          channel: where.channel,
          thread_ts: where.threadTs,
          ...view,
          metadata: { event_type: 'agent_notice', event_payload: { turn_id: turnId } },
        }),
      );
    },

    async refuse(where, userId, sourceTs, refusal: Refusal) {
      const view = renderRefusal(refusal);
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

    async findPostedAnswer(where, turnId) {
      const found: Array<{ ts: string; part: number; parts: number }> = [];
      let cursor: string | undefined;
      do {
        const page = await call('conversations.replies', () =>
          client.conversations.replies({
            channel: where.channel,
            ts: where.threadTs,
            include_all_metadata: true,
            limit: 200,
            cursor,
          }),
        );
        for (const message of page.messages ?? []) {
          const meta = message.metadata as
            | { event_type?: string; event_payload?: Record<string, unknown> }
            | undefined;
          if (message.user !== identity.botUserId && message.bot_id !== identity.botId) continue;
          if (meta?.event_type !== ANSWER_EVENT_TYPE || meta.event_payload?.turn_id !== turnId || !message.ts)
            continue;
          found.push({
            ts: message.ts,
            part: Number(meta.event_payload.part),
            parts: Number(meta.event_payload.parts),
          });
        }
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor);
      // Only a complete answer counts as posted; a partial one is posted again in full.
      const parts = found[0]?.parts ?? 0;
      return parts > 0 && new Set(found.map((item) => item.part)).size === parts
        ? found.map((item) => item.ts)
        : [];
    },
  };
}
