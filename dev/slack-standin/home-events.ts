import { DEFAULT_APP_ID, DEFAULT_BOT_ID, DEFAULT_TEAM_ID } from './defaults.js';
import { nextSlackTs } from './ts-clock.js';

/**
 * `app_home_opened` with `tab: "home"`, shaped as Slack sends it
 * (https://docs.slack.dev/reference/events/app_home_opened; slackapi/java-slack-sdk's
 * json-logs/samples/events/AppHomeOpenedPayload.json): `user`, `channel` (the app's DM with the
 * person), `tab`, `event_ts`, and — once the app has published a home for the person — the `view`
 * they see now, with its id, hash and the app's ids.
 */
export function homeTabOpenedEvent(
  input: { user?: string; channel?: string; view?: Record<string, unknown> | undefined; team?: string } = {},
): Record<string, unknown> {
  const team = input.team ?? DEFAULT_TEAM_ID;
  const ts = nextSlackTs();
  return {
    type: 'app_home_opened',
    user: input.user ?? 'UALICE',
    channel: input.channel ?? 'D00000001',
    tab: 'home',
    event_ts: ts,
    ...(input.view
      ? {
          view: {
            id: `V${ts.replace('.', '').slice(-10)}`,
            team_id: team,
            type: 'home',
            blocks: [],
            private_metadata: '',
            callback_id: '',
            state: { values: {} },
            hash: `${ts}.abcdef12`,
            title: { type: 'plain_text', text: 'View Title', emoji: true },
            clear_on_close: false,
            notify_on_close: false,
            close: null,
            submit: null,
            previous_view_id: null,
            root_view_id: null,
            app_id: DEFAULT_APP_ID,
            external_id: '',
            app_installed_team_id: team,
            bot_id: DEFAULT_BOT_ID,
            ...input.view,
          },
        }
      : {}),
  };
}
