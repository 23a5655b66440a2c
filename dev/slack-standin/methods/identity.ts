import { type MethodHandler, str } from './context.js';

/** auth.test: who the bot token belongs to. */
export const authTest: MethodHandler = (_args, { state }) => {
  const { teamId, botUserId, botId, enterpriseId } = state.identity;
  return {
    ok: true,
    url: 'https://standin-workspace.slack.com/',
    team: 'Stand-in Workspace',
    user: state.users.get(botUserId)?.name ?? 'agent',
    team_id: teamId,
    user_id: botUserId,
    bot_id: botId,
    ...(enterpriseId ? { enterprise_id: enterpriseId } : {}),
    // An org-wide install's token answers for the org itself.
    is_enterprise_install: enterpriseId !== undefined && teamId === enterpriseId,
  };
};

/**
 * users.info from the configurable user table, shaped like Slack's: people of other workspaces
 * (Slack Connect) keep their own `team_id`; Grid members carry `enterprise_user`.
 */
export const usersInfo: MethodHandler = (args, { state }) => {
  const user = state.users.get(str(args.user) ?? '');
  if (!user) return { ok: false, error: 'user_not_found' };
  const { enterprise_id, tz, ...fields } = user;
  return {
    ok: true,
    user: {
      ...fields,
      deleted: user.deleted ?? false,
      tz: tz ?? 'Europe/London',
      profile: { real_name: user.real_name, display_name: user.name, team: user.team_id },
      ...(enterprise_id
        ? {
            enterprise_user: {
              id: user.id,
              enterprise_id,
              enterprise_name: `Enterprise ${enterprise_id}`,
              is_admin: user.is_admin,
              is_owner: user.is_owner,
              teams: [user.team_id],
            },
          }
        : {}),
    },
  };
};
