import { type MethodHandler, str } from './context.js';

/** auth.test: who the bot token belongs to. */
export const authTest: MethodHandler = (_args, { state }) => {
  const { teamId, botUserId, botId } = state.identity;
  return {
    ok: true,
    url: 'https://standin-workspace.slack.com/',
    team: 'Stand-in Workspace',
    user: state.users.get(botUserId)?.name ?? 'agent',
    team_id: teamId,
    user_id: botUserId,
    bot_id: botId,
    is_enterprise_install: false,
  };
};

/** users.info from the configurable user table. */
export const usersInfo: MethodHandler = (args, { state }) => {
  const user = state.users.get(str(args.user) ?? '');
  if (!user) return { ok: false, error: 'user_not_found' };
  return {
    ok: true,
    user: {
      ...user,
      deleted: false,
      profile: { real_name: user.real_name, display_name: user.name, team: user.team_id },
    },
  };
};
