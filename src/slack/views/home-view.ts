/** A person's App Home (DESIGN "App Home"): https://docs.slack.dev/surfaces/app-home */
import type { HomeView, KnownBlock } from '@slack/types';
import type { AdminHome, AgentRow, PersonHome } from '../../home/home-data.js';
import type { RecentThread, RecentThreadStatus } from '../../home/home-ports.js';
import type { ConnectionStatus } from '../../home/service-connections.js';
import type { SlackIdentity } from '../slack-identity.js';
import { cutMrkdwn, escapedText, escapeSlackText, summariseInline, summariseLines } from './mrkdwn.js';
import { scheduleLine } from './schedule-replies.js';

/** Slack's limit of blocks in a view. */
export const HOME_MAX_BLOCKS = 100;
const SECTION_MAX_CHARS = 3_000;
const LIST_MAX_ROWS = 20;
const ROW_MAX_CHANNELS = 5;

/** The one sentence an outsider reads. */
export const OUTSIDER_HOME =
  'This agent answers people of its own organisation only, so there is nothing to show you here.';

/** The workspace's address (thread links) and the bot's user id (`<@U…>` in "how to ask"). */
export type HomeViewOptions = Pick<SlackIdentity, 'url' | 'botUserId'>;

const header = (text: string): KnownBlock => ({
  type: 'header',
  text: { type: 'plain_text', text, emoji: true },
});
const section = (text: string): KnownBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text: cutMrkdwn(text, SECTION_MAX_CHARS) },
});
const context = (text: string): KnownBlock => ({ type: 'context', elements: [{ type: 'mrkdwn', text }] });
const divider: KnownBlock = { type: 'divider' };

const STATUS_WORDS: Record<RecentThreadStatus, string> = {
  working: ':hourglass_flowing_sand: working',
  answered: ':white_check_mark: answered',
  failed: ':warning: failed',
  canceled: ':no_entry_sign: canceled',
  'no-answer': ':zzz: no answer',
};

/** Slack's permalink shape, `…/archives/C123/p1700000000000100`, else a redirect to the channel. */
export function threadLink(thread: Pick<RecentThread, 'channel' | 'threadTs'>, workspaceUrl?: string) {
  if (!workspaceUrl) return `https://slack.com/app_redirect?channel=${thread.channel}`;
  const base = workspaceUrl.endsWith('/') ? workspaceUrl : `${workspaceUrl}/`;
  return `${base}archives/${thread.channel}/p${thread.threadTs.replace('.', '')}`;
}

/** "<!date^1700000000^{date_short_pretty} {time}|2023-11-14 22:13 UTC>": shown in the reader's zone. */
function when(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const fallback = `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `<!date^${seconds}^{date_short_pretty} {time}|${fallback}>`;
}

const promptLine = (prompt: { title: string; message: string }) =>
  `• *${escapeSlackText(prompt.title)}* — ${escapeSlackText(prompt.message)}`;

function threadRow(thread: RecentThread, options: HomeViewOptions): KnownBlock {
  const title = escapedText(thread.title || 'Your question', 150).replace(/\|/g, ' ');
  const link = `<${threadLink(thread, options.url)}|${title}>`;
  return section(
    `*${link}*\n${STATUS_WORDS[thread.status]} · <#${thread.channel}> · ${when(thread.updatedAt)}`,
  );
}

const HEALTH_WORDS: Record<ConnectionStatus['health'], string> = {
  ok: ':white_check_mark: healthy',
  'token-rejected': ':x: token rejected',
  'region-mismatch': ':x: wrong region',
  'not-the-service': ':x: not the agent service',
  unavailable: ':warning: not answering',
};

function connectionLine(connection: ConnectionStatus): string {
  const account = connection.account
    ? ` — account *${escapedText(connection.account.name, 100)}* (${escapedText(String(connection.account.id), 40)})`
    : '';
  const alias = escapedText(connection.alias.replace(/`/g, "'"), 40);
  return `• \`${alias}\`${account} · ${escapedText(connection.host, 100)} · ${HEALTH_WORDS[connection.health]}`;
}

function agentLine(agent: AgentRow): string {
  const channels = agent.channels.map((channel) => `<#${channel}>`);
  const role = [agent.isDefault ? 'default' : undefined, summariseInline(channels, ROW_MAX_CHANNELS)]
    .filter(Boolean)
    .join(', ');
  const state = agent.seen
    ? `${agent.seen.active ? ':large_green_circle: on' : ':red_circle: off'} (${agent.seen.source === 'command' ? 'set by /agent' : 'ran'} ${when(agent.seen.at)})`
    : ':white_circle: not seen yet';
  return `• \`${agentCode(agent.agentId)}\`${role ? ` (${role})` : ''} — ${state}`;
}

/** An agent id in a code span: escaped, no backtick (it would end the span), not too long. */
const agentCode = (agentId: string) => escapedText(agentId.replace(/`/g, "'"), 100);

/**
 * A titled list in one section: whole rows that fit, then "…and N more"; `empty` when none. Rows
 * that could not be listed (undefined) show `unlisted`, or no section without it.
 */
function listSection(title: string, lines: string[] | undefined, empty: string, unlisted?: string) {
  if (!lines) return unlisted ? [section(`${title}\n${unlisted}`)] : [];
  if (lines.length === 0) return [section(`${title}\n${empty}`)];
  return [section(`${title}\n${summariseLines(lines, SECTION_MAX_CHARS - title.length - 1, LIST_MAX_ROWS)}`)];
}

/** "40% (4 of 10 answered sessions rated)", or a dash before any answer. */
export function coverageText(week: AdminHome['week']): string {
  const answered = week['answered-sessions'];
  if (answered === 0) return '— (no answers yet)';
  const rated = Math.min(week['rated-sessions'], answered);
  return `${Math.round((rated / answered) * 100)}% (${rated} of ${answered} answered sessions rated)`;
}

function adminBlocks(admin: AdminHome): KnownBlock[] {
  const channelLine = (channel: string) => `• <#${channel}>`;
  const { week } = admin;
  return [
    divider,
    header('For admins'),
    ...listSection(
      '*Service connections*',
      admin.connections?.map(connectionLine),
      '_none_',
      '_could not be listed just now_',
    ),
    ...listSection(
      '*Agents* (as the bot last saw them: the service lists none)',
      admin.agents.map(agentLine),
      '_none_',
    ),
    ...listSection(
      '*Channel agents*',
      admin.channelAgents.map((row) => `• <#${row.channel}> → \`${agentCode(row.agentId)}\``),
      '_none bound_ — `/agent channel use &lt;agent-id&gt;` in a channel binds it',
    ),
    ...listSection(
      '*Watched channels*',
      admin.watched?.map(channelLine),
      '_none_ — `/agent channel investigate on` in a channel',
      '_not available in this version_',
    ),
    ...listSection(
      '*Answer channels*',
      admin.answerChannels?.map(channelLine),
      '_none_ — `/agent channel answer-all on` in a channel',
    ),
    ...listSection(
      '*Scheduled questions*',
      admin.schedules?.map((row) => scheduleLine(row, true)),
      '_none_ — `/agent schedule add &lt;days&gt; &lt;HH:MM&gt; &lt;question&gt;` in a channel',
    ),
    section(
      `*This week* (${week.label}, UTC)\nRuns: *${week.runs}* · Answers: *${week.answers}* · Feedback coverage: *${coverageText(week)}*`,
    ),
  ];
}

export function renderHome(home: PersonHome, options: HomeViewOptions): HomeView {
  if (home.kind === 'outsider') return { type: 'home', blocks: [section(OUTSIDER_HOME)] };
  const blocks = [
    header('Ask the agent'),
    section(
      `Mention <@${options.botUserId}> in a channel, or write to me under *Messages*: I start an agent run in a thread, show its progress and post the answer there. Reply in the thread to follow up. Say a time (“in the last 2 hours”, “since 14:00”) to set the window the agent looks at, and rate answers with 👍 / 👎.`,
    ),
    ...(home.prompts.length === 0
      ? []
      : [section(`*Try asking*\n${home.prompts.map(promptLine).join('\n')}`)]),
    divider,
    header('Your recent threads'),
    ...(home.threads.length === 0
      ? [context('Nothing yet — the threads where you ask me show here, newest first.')]
      : home.threads.map((thread) => threadRow(thread, options))),
    ...(home.admin ? adminBlocks(home.admin) : []),
  ];
  return { type: 'home', blocks: blocks.slice(0, HOME_MAX_BLOCKS) };
}
