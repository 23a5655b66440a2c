import type { SeenItem } from './thread-monitor.js';

/**
 * Slack as plain terminal text: who speaks, what they say, indented continuation lines. Pure
 * functions of what the stand-in shows, so the chat layer only writes lines.
 */

/** Line prefixes: the person, the bot in the thread, and what only the person sees (ephemerals). */
export const SPEAKER = {
  you: 'you   ›',
  agent: 'agent ›',
  onlyYou: 'only you ›',
  sandbox: '  ·',
} as const;

/** Undoes Slack's three reserved-character escapes (https://docs.slack.dev/messaging/formatting-message-text#escaping). */
export function unescapeSlack(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/**
 * Slack's references as a person reads them (https://docs.slack.dev/messaging/formatting-message-text):
 * `<#C…>` → `#name`, `<@U…>` → `@name` (names from `names`, else the id), `<url|label>` →
 * `label (url)`; then the escapes undone.
 */
export function readableSlack(text: string, names: Readonly<Record<string, string>> = {}): string {
  return unescapeSlack(
    text
      .replace(
        /<#([A-Z0-9]+)(?:\|([^>]*))?>/g,
        (_, id: string, label?: string) => `#${names[id] ?? (label || id)}`,
      )
      .replace(
        /<@([A-Z0-9]+)(?:\|([^>]*))?>/g,
        (_, id: string, label?: string) => `@${names[id] ?? (label || id)}`,
      )
      .replace(/<(https?:\/\/[^|>]+)\|([^>]+)>/g, '$2 ($1)')
      .replace(/<(https?:\/\/[^|>]+)>/g, '$1'),
  );
}

/** The window a receipt line says it looked at: `… · looked at 12:52–13:52 UTC (2026-11-27)`. */
const RECEIPT_WINDOW = /\blooked at ([^·\n]+?)\s*(?:·|$)/im;

/**
 * An answer's text without its footer's "Looked at <window>" when its receipt already said that
 * window (`said`, from an earlier part of the same answer, or this text's own receipt line): in
 * Slack the two sit in different blocks; in a terminal the same words twice read as noise. Returns
 * the window the receipt said, for the answer's later parts.
 */
export function withoutRepeatedWindow(text: string, said?: string): { text: string; said?: string } {
  const [first = '', ...rest] = text.split('\n');
  const window = RECEIPT_WINDOW.exec(first)?.[1]?.trim() ?? said;
  if (window === undefined) return { text };
  const kept = rest.filter((line) => line.trim() !== `Looked at ${window}`);
  return { text: [first, ...kept].join('\n'), said: window };
}

/**
 * How the terminal names where something appeared. `placeOf` names a conversation in the speaker
 * (undefined: the chat's own channel, said plainly); `names` reads Slack's `<@U…>` / `<#C…>`.
 */
export interface SeenView {
  placeOf?: (channel: string) => string | undefined;
  /** Names a thread other than the one the person is in (`thread "why…"`); undefined: theirs. */
  threadOf?: (thread: { channel: string; ts: string }) => string | undefined;
  names?: Readonly<Record<string, string>>;
}

/** `agent ›`, or `agent (in your DM) ›` when the place is named. */
function speakerIn(speaker: string, place: string | undefined): string {
  return place ? speaker.replace(/ ›$/, ` (in ${place}) ›`) : speaker;
}

/** `label first line`, then every other line indented under the text. */
export function speak(label: string, text: string): string {
  const pad = ' '.repeat(label.length + 1);
  const [first = '', ...rest] = text.replace(/\s+$/, '').split('\n');
  return [`${label} ${first}`, ...rest.map((line) => (line === '' ? '' : `${pad}${line}`))].join('\n');
}

/** "812 bytes", "12.3 kB", "1.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** A file in the thread or a DM, as a line. */
export function fileLine(file: { name: string; length: number }, where: string): string {
  return `📎 ${file.name} (${formatBytes(file.length)}) ${where}`;
}

/** The machine-checkable feedback line, from the simulator's record. */
export function feedbackLine(score: number, sessionId: string): string {
  const glyph = score === 100 ? '👍' : score === 0 ? '👎' : '•';
  return `feedback recorded: ${glyph} score ${score} for session ${sessionId}`;
}

/** What the banner names. */
export interface BannerInfo {
  simulatorUrl: string;
  slackUrl: string;
  appUrl: string;
  channel: string;
  user: string;
  steps: number;
  stepMs: number;
  /** Where the bot's logs go: a file path or "stderr". */
  logs: string;
}

/** How the feedback buttons under an answer look here, and how to click them. */
export const FEEDBACK_BUTTONS = '[ 👍 ] [ 👎 ]   ← /rate good|bad [comment]';

/** The agent view's suggested prompts, as the person sees them when they open the bot's DM. */
export function renderSuggestedPrompts(prompts: ReadonlyArray<{ title: string; message: string }>): string {
  return [
    `${SPEAKER.sandbox} suggested prompts (the bot's agent view):`,
    ...prompts.map((prompt) => `${SPEAKER.sandbox}   • ${prompt.title} — ${prompt.message}`),
  ].join('\n');
}

/** The sandbox's commands, shown in the banner and by /help. */
export const SANDBOX_HELP = [
  'Type a message to ask the agent (the first one in a thread mentions the bot, later ones reply).',
  '  :+1: / :-1:       react to the last answer (👍 / 👎 feedback to the agent service)',
  '  /rate good|bad [comment]  click 👍 / 👎 under the last answer (and send a comment through its form)',
  '  /agent <command>  run an admin command as you (try /agent help, /agent whoami)',
  '  /agent connections add   add the demo account (a second simulator) through its form; then',
  '                    /agent channel use sim-agent-api on demo  makes #sandbox ask that account',
  '  /agent channel answer-all on|off  make #sandbox an answer channel: your new threads start without',
  '                    a mention, and the bot answers them all (off: mentions again)',
  '  /file <path> [question]  share a local file with a question (the footer says what reached the agent)',
  '  /new              start a new thread',
  '  /alert <text>     a monitoring bot posts an alert; your next message asks the bot about it',
  '  /webhook [title]  the alert webhook fires (POST /alerts): a card, and the bot investigates on its own',
  '  /schedule [--now] <question>  add it as a daily scheduled question for the next minute',
  "                    (/agent schedule add); --now moves the bot's schedule clock there: asked within ~20 s",
  '  /shared           share #sandbox with another organisation (Slack Connect), or stop sharing it',
  "  /home             open the bot's Home tab: your recent threads, and (you are an admin) the agent's health",
  "  /stop             press Stop on the thread's agent session while the agent works",
  '  /quit             leave (Ctrl-C and Ctrl-D too)',
  'Script a turn with a [sim …] tag, e.g. "why? [sim steps=5 outcome=error]"',
  '  (keys: steps, stepms, outcome=done|error|canceled, size, answer="…", mention,',
  '   echo=context: the answer shows the thread context and time range the agent was given)',
].join('\n');

/** The banner: what runs where, and how to use it. */
export function renderBanner(info: BannerInfo): string {
  return [
    'slack-agent-bridge sandbox — no Slack, no agent service: everything runs on this machine',
    `  the bot (same code as npm start, HTTP mode)  ${info.appUrl}/slack/events`,
    `  Slack stand-in                               ${info.slackUrl}  (#${info.channel}, you are @${info.user}, an admin)`,
    `  agent service simulator                      ${info.simulatorUrl}  (${info.steps} steps × ${info.stepMs} ms per answer)`,
    `  bot logs                                     ${info.logs}`,
    '',
    SANDBOX_HELP,
    '',
  ].join('\n');
}

/** Something seen in Slack (see ThreadMonitor), as terminal lines. */
export function renderSeen(item: SeenItem, view: SeenView = {}): string {
  const readable = (text: string) => readableSlack(text, view.names);
  if (item.kind === 'moved') {
    const to = view.placeOf?.(item.to.channel) ?? 'your DM';
    return `${SPEAKER.sandbox} the bot moved your question to ${to}, where only you read the answer: your next lines are replies in that thread`;
  }
  if (item.kind === 'ephemeral')
    return speak(speakerIn(SPEAKER.onlyYou, view.placeOf?.(item.channel)), readable(item.text));
  if (item.kind === 'root') {
    const place = view.placeOf?.(item.thread.channel);
    return speak(
      SPEAKER.agent.replace(/ ›$/, ` (new thread${place ? ` in ${place}` : ''}) ›`),
      readable(item.text),
    );
  }
  const where = [view.placeOf?.(item.thread.channel), view.threadOf?.(item.thread)].filter(Boolean);
  const place = where.length > 0 ? where.join(', ') : undefined;
  const agent = speakerIn(SPEAKER.agent, place);
  switch (item.kind) {
    case 'progress':
      return `${SPEAKER.sandbox} ${place ? `(in ${place}) ` : ''}${readable(item.text)}`;
    case 'status':
      return `${SPEAKER.sandbox} (status${place ? ` in ${place}` : ''}) agent ${item.text}`;
    case 'answer':
      return item.buttons ? speak(agent, `${item.text}\n${FEEDBACK_BUTTONS}`) : speak(agent, item.text);
    case 'notice':
      return speak(agent, readable(item.text));
    case 'file':
      return speak(agent, fileLine(item, 'uploaded in the thread'));
  }
}
