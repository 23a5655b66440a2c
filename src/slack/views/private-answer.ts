/** The words around an answer that went privately (DESIGN "Who reads the answer"); no log data. */
import type { OutsiderReason } from '../../conversation/access/audience.js';
import { escapedText } from './mrkdwn.js';
import { neutraliseSlackControls } from './neutralise.js';

/** How much of the question the private thread quotes (a section's text is at most 3,000). */
const QUESTION_MAX_CHARS = 2_000;

const AUDIENCE_REASONS: Record<OutsiderReason, string> = {
  shared: 'this conversation is shared with another organisation (Slack Connect)',
  guest: 'guests are members of this conversation',
  outsider: 'people from outside the organisation are in this conversation',
  unknown: "Slack couldn't tell me who can read this conversation",
};

/** Why the conversation is outsider-readable, as the end of a sentence. */
export const audienceReasonText = (reason: OutsiderReason | undefined): string =>
  AUDIENCE_REASONS[reason ?? 'unknown'] ?? AUDIENCE_REASONS.unknown;

/** The message that opens the asker's private thread: their question quoted, with a link to it. */
export function renderPrivateQuote(input: {
  channel: string;
  permalink?: string | undefined;
  question: string;
  reason: OutsiderReason;
}): { text: string; blocks: Array<Record<string, unknown>> } {
  // A link's label holds no control sequence (Slack ends the link at the first `>`): the channel
  // is named beside the link. https://docs.slack.dev/messaging/formatting-message-text#linking-urls
  const link = input.permalink && !/[<>|\s]/.test(input.permalink) ? ` (<${input.permalink}>)` : '';
  const where = `in <#${input.channel}>${link}`;
  const question = escapedText(neutraliseSlackControls(input.question).trim(), QUESTION_MAX_CHARS);
  // No question: the conversation changed while the agent worked (the turn keeps no copy of it).
  const asked =
    question === ''
      ? `Your question ${where} became readable by more people while I worked on it.`
      : `You asked ${where}:\n>${question.replace(/\n/g, '\n>')}`;
  const text = `${asked}\nI'm answering you here, privately: my answers can include internal log data, and ${audienceReasonText(input.reason)}. Reply in this thread to follow up.`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

/** The one note in the original thread: where the answer went, and why — no log data. */
export const renderPrivateNote = (asker: string, reason: OutsiderReason): string =>
  `:lock: I've answered <@${asker}> in a direct message: my answers can include internal log data, and ${audienceReasonText(reason)}.`;

/** The ephemeral refusals of the audience policy. */
export function renderAudienceRefusal(
  refusal: 'outsider-audience' | 'private-thread-failed',
  reason: OutsiderReason | undefined,
): string {
  const why = audienceReasonText(reason);
  if (refusal === 'outsider-audience')
    return `I don't answer here: my answers can include internal log data, and ${why}. Message me directly instead.`;
  return `My answer had to go to you in a direct message (${why}), but Slack wouldn't open one just now — please message me directly.`;
}
