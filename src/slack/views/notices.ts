/**
 * The short messages the bot posts in threads besides answers: progress, refusals and how a turn
 * ended. All go through `notice()`, so the Block Kit shape lives in one place.
 */
import type { ContextBlock, MrkdwnElement, SectionBlock } from '@slack/types';
import type { OutsiderReason } from '../../conversation/access/audience.js';
import type {
  AnswerNote,
  Progress,
  Refusal,
  RefusalDetail,
  TurnNotice,
} from '../../conversation/thread-output-port.js';
import { describeError } from './describe-error.js';
import { escapedText } from './mrkdwn.js';
import { neutraliseSlackControls } from './neutralise.js';
import { overLimitText } from './over-limit.js';
import { audienceReasonText, renderAudienceRefusal } from './private-answer.js';

/** Notices use a context block (small, grey: progress and refusals) or a section (endings). */
export type NoticeBlock = ContextBlock | SectionBlock;

/** Spread into `chat.postMessage`, `chat.update` or `chat.postEphemeral`. */
export interface NoticeView {
  /** The same words as the block: the notification and screen-reader text. */
  text: string;
  blocks: NoticeBlock[];
}

/** How long an agent's error reason may be in a notice; the rest is in the run, not the thread. */
const REASON_MAX_CHARS = 500;

/** The one Block Kit shape for notices. */
function notice(text: string, style: 'context' | 'section' = 'section'): NoticeView {
  const body: MrkdwnElement = { type: 'mrkdwn', text };
  const block: NoticeBlock =
    style === 'context' ? { type: 'context', elements: [body] } : { type: 'section', text: body };
  return { text, blocks: [block] };
}

/**
 * Untrusted text inside our mrkdwn: neutralised, on one line, shortened, and with the three
 * characters mrkdwn reserves escaped
 * (https://docs.slack.dev/messaging/formatting-message-text#escaping).
 */
function untrusted(text: string, max: number): string {
  const flat = neutraliseSlackControls(text).replace(/\s+/g, ' ').trim();
  // Escaped before it is cut (views/mrkdwn.ts): `max` is what Slack receives.
  return escapedText(flat, max);
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

/** "Working on it… step 3 · 42 s" (no step before the agent reports one). */
export function renderProgress(progress: Progress): NoticeView {
  const step = progress.steps > 0 ? `step ${progress.steps} · ` : '';
  return notice(`Working on it… ${step}${formatDuration(progress.elapsedMs)}`, 'context');
}

/** The agent's run ended in `error`: its reason, made safe. */
export function renderRunError(reason: string): NoticeView {
  const shown = untrusted(reason, REASON_MAX_CHARS);
  return notice(
    shown
      ? `:warning: The agent couldn't finish: ${shown}`
      : ":warning: The agent couldn't finish and gave no reason — please try again.",
  );
}

/** The run was canceled on the service's side. */
export function renderCanceled(): NoticeView {
  return notice('The agent run was canceled before it finished.');
}

/**
 * The per-turn deadline passed. With a late watch (`watchForMs` > 0) the bot still looks in on the
 * run and says so; without one it no longer polls, so it says how long it waited.
 */
export function renderStoppedWaiting(waitedMs: number, watchForMs = 0): NoticeView {
  if (watchForMs > 0) {
    return notice(
      `:hourglass_flowing_sand: The agent is still working after ${formatDuration(waitedMs)}. I'll keep an eye on it for up to ${formatDuration(watchForMs)} more and post its answer here if it comes — no need to ask again.`,
    );
  }
  return notice(
    `I stopped waiting after ${formatDuration(waitedMs)} without an answer from the agent — please ask again if you still need one.`,
  );
}

/** The late watch ended too; the next reply is checked against the run before it is sent. */
export function renderWatchEnded(waitedMs: number): NoticeView {
  return notice(
    `I stopped watching after ${formatDuration(waitedMs)} without an answer from the agent. Reply here to ask again: if the agent has finished by then, I'll send your message on; if it is still working, I'll tell you.`,
  );
}

/** The line above an answer that came after the turn deadline. */
export function renderLateNote(tookMs: number): string {
  return `:hourglass: _Late answer — the agent took ${formatDuration(tookMs)}._`;
}

/** A restart lost the turn before its run was registered (DESIGN "Durable turns"). */
export function renderAskAgain(): NoticeView {
  return notice('I was restarted before your request reached the agent — please send your message again.');
}

/** Someone pressed Stop (DESIGN "Agent sessions and Stop"): the service has no cancel. */
export function renderStopped(): NoticeView {
  return notice(
    ':octagonal_sign: Stopped. The agent may still finish on its side, but its answer will not be posted here. Ask again to start over.',
  );
}

/**
 * The conversation became outsider-readable while the agent worked (DESIGN "Audience at every
 * post") and the answer had nowhere private to go: said without any of its data.
 */
export function renderWithheld(reason: OutsiderReason): NoticeView {
  return notice(
    `:lock: I haven't posted the answer here: while the agent worked, this changed — ${audienceReasonText(reason)} — and my answers can include internal log data. Ask me in a direct message to get it.`,
  );
}

/** A service failure: the sentence from describeError, with its reference id. */
export function renderServiceError(error: unknown, referenceId: string): NoticeView {
  return notice(`:warning: ${describeError(error, referenceId)}`);
}

/** How a turn ended, for each notice the conversation layer emits. */
export function renderNotice(turnNotice: TurnNotice): NoticeView {
  switch (turnNotice.kind) {
    case 'run-error':
      return renderRunError(turnNotice.reason);
    case 'canceled':
      return renderCanceled();
    case 'deadline':
      return renderStoppedWaiting(turnNotice.waitedMs, turnNotice.watchForMs);
    case 'watch-ended':
      return renderWatchEnded(turnNotice.waitedMs);
    case 'service-error':
      return renderServiceError(turnNotice.error, turnNotice.referenceId);
    case 'lost-turn':
      return renderAskAgain();
    case 'stopped':
      return renderStopped();
    case 'withheld':
      return renderWithheld(turnNotice.reason);
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

/**
 * The ephemeral refusal for a message that was not taken as a turn. `now` (epoch ms) is when it
 * is shown: the over-limit countdown runs from it.
 */
export function renderRefusal(refusal: Refusal, detail: RefusalDetail = {}, now = Date.now()): NoticeView {
  if (refusal === 'over-limit' && detail.retryAt !== undefined) {
    return notice(overLimitText({ ...detail, retryAt: detail.retryAt }, now), 'context');
  }
  if (refusal === 'busy' && detail.workingForMs !== undefined) {
    return notice(
      `I'm still working on the previous message in this thread (the agent has been at it for ${formatDuration(detail.workingForMs)}) — please send yours again once the answer is here.`,
      'context',
    );
  }
  if ((refusal === 'outsider-audience' || refusal === 'private-thread-failed') && detail.audience) {
    return notice(renderAudienceRefusal(refusal, detail.audience), 'context');
  }
  return notice(REFUSALS[refusal], 'context');
}

/** The footer lines of an answer (mrkdwn), one per note. */
const ANSWER_NOTES: Record<AnswerNote, string> = {
  'files-not-sent': ":paperclip: Files aren't sent to the agent — it read only the text of your message.",
};

/** The answer's footer: what the person should know besides the answer. */
export function renderAnswerNotes(notes: readonly AnswerNote[]): string[] {
  return notes.map((note) => ANSWER_NOTES[note]);
}
