import type { KnownBlock, MessageMetadata } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { AnswerToPost, ThreadLocation } from '../conversation/thread-output-port.js';
import { NO_PREVIEWS } from './no-previews.js';
import type { CountedCall } from './slack-errors.js';
import { ANSWER_EVENT_TYPE } from './turn-messages.js';
import { describeFiles } from './views/file-footer.js';
import { renderAnswerNotes, renderLateNote } from './views/notices.js';
import { renderReceipt } from './views/receipt.js';
import { type AnswerMessage, renderAnswer, renderPlainAnswer } from './views/render-answer.js';
import { describeTimeRange } from './views/time-range-footer.js';

/** The answer in its messages: its footer, late note, receipt and feedback buttons, tagged with the turn. */
function renderTurnAnswer(answer: AnswerToPost, fileThresholdChars: number) {
  const render = answer.style === 'plain' ? renderPlainAnswer : renderAnswer;
  const late = answer.lateAfterMs !== undefined;
  return render(answer.markdown, {
    fileThresholdChars,
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
      ? renderReceipt({ kind: 'answer', late }, answer.receipt, answer.turnId)
      : undefined,
  });
}

/** A message's blocks, receipt first; the plain rendering (after Slack refused the rich one) has none. */
function blocksOf(message: AnswerMessage) {
  if (message.blocks.length === 0) return {};
  const receipt = message.receipt ? [message.receipt] : [];
  const feedback = message.feedback ? [message.feedback] : [];
  return { blocks: [...receipt, ...message.blocks, ...feedback] as never };
}

type ThreadPost = { text: string; blocks?: KnownBlock[]; metadata?: MessageMetadata };

/** Posts in a turn's thread, counted as `chat.postMessage`; never with previews: it carries service data. */
export function threadPoster(client: WebClient, call: CountedCall) {
  return ({ channel, threadTs }: ThreadLocation, message: ThreadPost) =>
    call('chat.postMessage', () =>
      client.chat.postMessage({ channel, thread_ts: threadTs, ...message, ...NO_PREVIEWS }),
    );
}

/** Posts an answer's parts, then past the threshold its file; resolves with every part's ts. */
export function answerPoster(client: WebClient, call: CountedCall, fileThresholdChars: number) {
  const post = threadPoster(client, call);
  return async (where: ThreadLocation, answer: AnswerToPost, onPart?: (ts: string) => Promise<void>) => {
    const rendered = renderTurnAnswer(answer, fileThresholdChars);
    const parts: string[] = [];
    // In order, one at a time: Slack allows about one message a second per channel (429s waited out).
    for (const message of rendered.messages) {
      const result = await post(where, {
        text: message.text,
        ...blocksOf(message),
        ...(message.metadata ? { metadata: message.metadata } : {}),
      });
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
  };
}
