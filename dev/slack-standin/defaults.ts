import type { StandinUser } from './types.js';

/** Workspace id the stand-in answers with (and the test helpers put in events) unless told otherwise. */
export const DEFAULT_TEAM_ID = 'T0TEST';
/** The bot's user id (`auth.test` → `user_id`, `authorizations[0].user_id`). */
export const DEFAULT_BOT_USER_ID = 'UBOT';
/** The bot's bot id (`bot_id` on its messages). */
export const DEFAULT_BOT_ID = 'B0BOT';
/** The app id (`api_app_id` in events, `app_id` on the bot's messages). */
export const DEFAULT_APP_ID = 'A0APP';
/** The bot token the tests use: obviously fake. */
export const TEST_BOT_TOKEN = 'xoxb-test-not-a-real-token';
/** The app-level token the tests use for Socket Mode: obviously fake. */
export const TEST_APP_TOKEN = 'xapp-test-not-a-real-token';

/**
 * The default user table: a workspace admin, an owner, two ordinary members, a multi-channel guest,
 * a single-channel guest who is (oddly, but Slack allows the flags together) a workspace admin, one
 * person from another organisation (Slack Connect) and the bot itself.
 */
export function defaultUsers(teamId: string, botUserId: string): StandinUser[] {
  const person = (id: string, name: string, realName: string, extra: Partial<StandinUser> = {}) => ({
    id,
    team_id: teamId,
    name,
    real_name: realName,
    is_admin: false,
    is_owner: false,
    is_bot: false,
    ...extra,
  });
  return [
    person('UADMIN', 'admin', 'Ada Admin', { is_admin: true, tz: 'Europe/London' }),
    person('UOWNER', 'owner', 'Olga Owner', { is_admin: true, is_owner: true, tz: 'Europe/London' }),
    person('UALICE', 'alice', 'Alice Member', { tz: 'America/New_York' }),
    person('UBOB', 'bob', 'Bob Member', { tz: 'Europe/Berlin' }),
    person('UGUEST', 'guest', 'Gus Guest', { is_restricted: true, tz: 'Europe/Paris' }),
    person('UGUESTADMIN', 'guestadmin', 'Gia Guest-Admin', {
      is_admin: true,
      is_restricted: true,
      is_ultra_restricted: true,
    }),
    person('UEXTERNAL', 'ext', 'Eve External', {
      team_id: 'T0OTHERORG',
      tz: 'Asia/Tokyo',
      is_stranger: true,
    }),
    person(botUserId, 'agent', 'Agent Bot', { is_bot: true }),
  ];
}
