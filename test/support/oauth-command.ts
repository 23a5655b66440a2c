import { OAUTH_SIGNING_SECRET, type OAuthHarness } from './oauth-harness.js';
import { postSlashCommand } from './slack-events.js';

/** Who types a slash command, from which workspace, in which channel. */
export interface CommandPlace {
  user: string;
  team: string;
  channel: string;
}

/**
 * `/agent <text>` typed at `place` in an OAuth bot, signed as Slack signs it; resolves with the
 * command's own last reply (a "Working on it…" first answer is waited past).
 */
export async function oauthCommand(
  h: OAuthHarness,
  place: CommandPlace,
  text: string,
): Promise<Record<string, unknown>> {
  const responseUrl = h.slack.responseUrl();
  const posted = await postSlashCommand(h.appUrl, OAUTH_SIGNING_SECRET, {
    command: '/agent',
    text,
    user_id: place.user,
    channel_id: place.channel,
    team_id: place.team,
    response_url: responseUrl,
    // As Slack does: a trigger_id views.open accepts once, within 3 s.
    trigger_id: h.slack.issueTriggerId(),
  });
  if (posted.status !== 200) throw new Error(`/agent ${text}: the bot answered HTTP ${posted.status}`);
  const id = responseUrl.split('/').pop() ?? '';
  const replies = await h.slack.waitFor(
    () => {
      const all = h.slack.responses(id);
      return all.length > 0 && !/working on it/i.test(JSON.stringify(all.at(-1))) ? all : undefined;
    },
    { description: `/agent ${text} answered` },
  );
  return replies.at(-1) as Record<string, unknown>;
}
