/** The bot's short thread messages besides answers: progress, refusals and how a turn ended. */
import type { ContextBlock, MrkdwnElement, SectionBlock } from '@slack/types';
import type {
  AnswerNote,
  Progress,
  Refusal,
  RefusalDetail,
  TurnNotice,
} from '../../conversation/thread-output-port.js';
import { describeError } from './describe-error.js';
import { escapeMrkdwn } from './mrkdwn-reply.js';
import { overLimitText } from './over-limit.js';
import { audienceReasonText, renderAudienceRefusal } from './private-answer.js';

/** Spread into `chat.postMessage`, `chat.update` or `chat.postEphemeral`. */
export interface NoticeView {
  /** The same words as the block: the notification and screen-reader text. */
  text: string;
  /** A context block (small, grey: progress and refusals) or a section (endings). */
  blocks: Array<ContextBlock | SectionBlock>;
}

/** How long an agent's error reason may be in a notice; the rest is in the run, not the thread. */
const REASON_MAX_CHARS = 500;

function notice(text: string, style: 'context' | 'section' = 'section'): NoticeView {
  const body: MrkdwnElement = { type: 'mrkdwn', text };
  return {
    text,
    blocks: [style === 'context' ? { type: 'context', elements: [body] } : { type: 'section', text: body }],
  };
}

/** "42 s", "3 min 5 s", "1 h 2 min": the units a person reads at a glance. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** "step 3 · 42 s" (no step before the agent reports one), after "Working on it… ". */
export const progressDetail = (progress: Progress): string =>
  `${progress.steps > 0 ? `step ${progress.steps} · ` : ''}${formatDuration(progress.elapsedMs)}`;

/** "Working on it… step 3 · 42 s". */
export const renderProgress = (progress: Progress): NoticeView =>
  notice(`Working on it… ${progressDetail(progress)}`, 'context');

/** The line above an answer that came after the turn deadline. */
export const renderLateNote = (tookMs: number): string =>
  `:hourglass: _Late answer — the agent took ${formatDuration(tookMs)}._`;

/** How a turn ended, for each notice the conversation layer emits. */
export const renderNotice = (turnNotice: TurnNotice): NoticeView => notice(noticeText(turnNotice));

function noticeText(turnNotice: TurnNotice): string {
  switch (turnNotice.kind) {
    case 'run-error': {
      const shown = escapeMrkdwn(turnNotice.reason, REASON_MAX_CHARS);
      return shown
        ? `:warning: The agent couldn't finish: ${shown}`
        : ":warning: The agent couldn't finish and gave no reason — please try again.";
    }
    case 'canceled':
      return 'The agent run was canceled before it finished.';
    case 'deadline': {
      const waited = formatDuration(turnNotice.waitedMs);
      const watchForMs = turnNotice.watchForMs ?? 0;
      // With a late watch the bot still looks in on the run; without one it no longer polls.
      return watchForMs > 0
        ? `:hourglass_flowing_sand: The agent is still working after ${waited}. I'll keep an eye on it for up to ${formatDuration(watchForMs)} more and post its answer here if it comes — no need to ask again.`
        : `I stopped waiting after ${waited} without an answer from the agent — please ask again if you still need one.`;
    }
    case 'watch-ended':
      // The next reply is checked against the run before it is sent.
      return `I stopped watching after ${formatDuration(turnNotice.waitedMs)} without an answer from the agent. Reply here to ask again: if the agent has finished by then, I'll send your message on; if it is still working, I'll tell you.`;
    case 'service-error':
      return `:warning: ${describeError(turnNotice.error, turnNotice.referenceId)}`;
    case 'lost-turn':
      // A restart lost the turn before its run was registered (DESIGN "Durable turns").
      return 'I was restarted before your request reached the agent — please send your message again.';
    case 'stopped':
      // DESIGN "Agent sessions and Stop": the service has no cancel.
      return ':octagonal_sign: Stopped. The agent may still finish on its side, but its answer will not be posted here. Ask again to start over.';
    case 'withheld':
      // DESIGN "Audience at every post": said without any of the answer's data.
      return `:lock: I haven't posted the answer here: while the agent worked, this changed — ${audienceReasonText(turnNotice.reason)} — and my answers can include internal log data. Ask me in a direct message to get it.`;
  }
}

/** Shown only to the sender (ephemeral): why their message did not start a turn. */
const REFUSALS: Record<Refusal, string> = {
  busy: "I'm still working on the previous message in this thread — please send yours again once the answer is here.",
  'external-user':
    "Sorry, I only answer people from this workspace's organisation: my answers can include internal log data.",
  guest:
    "Sorry, I don't answer guests of this workspace: my answers can include internal log data. An admin of this bot can allow guests if that is acceptable.",
  'identity-unchecked':
    "I couldn't check which organisation you belong to just now (Slack didn't answer) — please try again in a moment.",
  'channel-not-allowed':
    "I'm not enabled in this channel — ask an admin to add it to the allowed channels, or message me directly.",
  'empty-prompt': 'Your message was empty once I removed my name — what should I ask the agent?',
  unavailable:
    "I couldn't take your message just now (my state store didn't answer) — please send it again in a moment.",
  'time-future':
    "The time in your message is in the future, so there's nothing to look at yet — please ask about a past time (e.g. “in the last 2 hours”).",
  'time-reversed':
    'The time range in your message ends before it starts — please give the start first (e.g. “from 3pm to 5pm”).',
  'time-too-long':
    'The time range in your message is longer than 31 days — please ask about a shorter range (e.g. “in the last 7 days”).',
  'outsider-audience': renderAudienceRefusal('outsider-audience', undefined),
  'private-thread-failed': renderAudienceRefusal('private-thread-failed', undefined),
  'unbound-channel':
    'No agent serves this channel in this workspace yet, so nothing was sent: an admin can bind one of this workspace’s service connections with `/agent channel use &lt;agent-id&gt; on &lt;alias&gt;`.',
  'over-limit': "You've asked as many questions in the last hour as one person can — please ask again later.",
};

/** The ephemeral refusal of a message not taken as a turn; the over-limit countdown runs from `now`. */
export function renderRefusal(refusal: Refusal, detail: RefusalDetail = {}, now = Date.now()): NoticeView {
  let text = REFUSALS[refusal];
  if (refusal === 'over-limit' && detail.retryAt !== undefined)
    text = overLimitText({ ...detail, retryAt: detail.retryAt }, now);
  else if (refusal === 'busy' && detail.workingForMs !== undefined)
    text = `I'm still working on the previous message in this thread (the agent has been at it for ${formatDuration(detail.workingForMs)}) — please send yours again once the answer is here.`;
  else if ((refusal === 'outsider-audience' || refusal === 'private-thread-failed') && detail.audience)
    text = renderAudienceRefusal(refusal, detail.audience);
  return notice(text, 'context');
}

const ANSWER_NOTES: Record<AnswerNote, string> = {
  'files-not-sent': ":paperclip: Files aren't sent to the agent — it read only the text of your message.",
};

/** The answer's footer: what the person should know besides the answer. */
export const renderAnswerNotes = (notes: readonly AnswerNote[]): string[] =>
  notes.map((note) => ANSWER_NOTES[note]);
