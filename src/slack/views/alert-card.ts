import type { AlertCard, NotInvestigatedReason } from '../../alerts/alert-ports.js';
import { describeWindow } from '../../alerts/alert-run-input.js';
import { escapedText, summariseLines } from './mrkdwn.js';
import { truncate } from './text-cut.js';

/** Alert cards and replies (DESIGN "Alert investigations"); alert text is escaped: no pings. */

/** `metadata.event_type` of alert cards, so a thread's root can be told apart from other posts. */
export const ALERT_EVENT_TYPE = 'agent_alert';
/** The card's link button (its clicks are only acked: the browser opens the URL). */
export const VIEW_IN_EXPLORE_ACTION_ID = 'alert_view_in_explore';

type Block = Record<string, unknown>;

/** Slack's limits: header text 150, section and context text 3,000, button url 3,000, a field 2,000. */
const HEADER_MAX = 150;
const DESCRIPTION_MAX = 1_500;
const URL_MAX = 3_000;
const TAG_MAX = 100;
const TAGS_MAX = 1_000;
const SEVERITY_MAX = 100;

const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const context = (text: string): Block => ({ type: 'context', elements: [mrkdwn(text)] });
const contextView = (text: string) => ({ text, blocks: [context(text)] });

/** "Tags: `a` `b` …and N more", whole tags only, within TAGS_MAX. */
function tagsText(tags: readonly string[]): string | undefined {
  if (tags.length === 0) return undefined;
  const shown = tags.map((tag) => `\`${escapedText(tag.replace(/`/g, "'"), TAG_MAX)}\``);
  // summariseLines keeps whole items and counts the rest; tags read better on one line.
  return `Tags: ${summariseLines(shown, TAGS_MAX - 'Tags: '.length).replace(/\n/g, ' ')}`;
}

/** Why an alert was not investigated, and how to ask anyway. */
export function notInvestigatedText(reason: NotInvestigatedReason, botUserId: string): string {
  const bot = `<@${botUserId}>`;
  if (reason.kind === 'unbound')
    return 'Not investigated: no agent serves this channel in this workspace yet. An admin can bind one of this workspace’s service connections with `/agent channel use &lt;agent-id&gt; on &lt;alias&gt;`.';
  if (reason.kind === 'hourly-limit')
    return `Not investigated automatically: ${reason.limit} alerts were already investigated in this channel in the last hour (ALERT_RUNS_PER_HOUR). To investigate this one, mention ${bot} in this thread.`;
  const ask =
    reason.policy === 'dm'
      ? `To investigate it, mention ${bot} in this thread: the answer comes to you in a direct message.`
      : `Ask ${bot} about it in a direct message.`;
  return `Not investigated automatically: people outside the organisation can read this channel, and investigations are not posted where they can read them. ${ask}`;
}

function facts(card: AlertCard): Block | undefined {
  const window = describeWindow(card.windowStart, card.windowEnd);
  const fields = [
    card.severity ? mrkdwn(`*Severity*\n${escapedText(card.severity, SEVERITY_MAX)}`) : undefined,
    window ? mrkdwn(`*Window*\n${window}`) : undefined,
  ].filter((field) => field !== undefined);
  return fields.length > 0 ? { type: 'section', fields } : undefined;
}

/** The card posted as a new message in the alert channel. */
export function renderAlertCard(card: AlertCard, botUserId: string) {
  const status = card.notInvestigated
    ? notInvestigatedText(card.notInvestigated, botUserId)
    : ':mag: Investigating in this thread…';
  const tags = tagsText(card.tags);
  const explore = card.exploreUrl && card.exploreUrl.length <= URL_MAX ? card.exploreUrl : undefined;
  const blocks = [
    { type: 'header', text: { type: 'plain_text', text: truncate(card.title, HEADER_MAX) } },
    facts(card),
    tags ? context(tags) : undefined,
    card.description
      ? { type: 'section', text: mrkdwn(escapedText(card.description, DESCRIPTION_MAX)) }
      : undefined,
    explore
      ? {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: VIEW_IN_EXPLORE_ACTION_ID,
              text: { type: 'plain_text', text: 'View in Explore' },
              url: explore,
            },
          ],
        }
      : undefined,
    context(status),
  ].filter((block): block is Block => block !== undefined);
  const severity = card.severity ? ` (${escapedText(card.severity, SEVERITY_MAX)})` : '';
  return {
    text: `Alert: ${escapedText(card.title, HEADER_MAX)}${severity} — ${status}`,
    blocks,
    metadata: {
      event_type: ALERT_EVENT_TYPE,
      event_payload: { investigated: card.notInvestigated === undefined },
    },
  };
}

/** "Fired again" in the earlier alert's thread. */
export function renderFiredAgain(title: string, at: number) {
  const time = new Date(at).toISOString().slice(11, 16);
  return contextView(
    `:repeat: “${escapedText(title, HEADER_MAX)}” fired again at ${time} UTC (within ALERT_COOLDOWN_MINUTES of this investigation: not investigated again).`,
  );
}

/** Under an integration's alert in a watched channel: why it is not investigated. */
export const renderNotInvestigated = (reason: NotInvestigatedReason, botUserId: string) =>
  contextView(notInvestigatedText(reason, botUserId));
