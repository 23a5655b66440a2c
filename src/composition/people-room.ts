/** Who is who: a person as Slack knows them (users.info, per installation) and whether they are inside. */
import { createInsideCheck } from '../conversation/access/who-is-inside.js';
import { createUserDirectory, slackUsersInfo } from '../slack/user-directory.js';
import type { BotContext } from './bot-context.js';

/** Assembles the people room: the user directory and the inside check that reads it. */
export function wirePeople(
  ctx: Pick<BotContext, 'config' | 'identity' | 'slack' | 'logger'>,
  client: ReturnType<BotContext['slack']['webClient']>,
) {
  const { config } = ctx;
  const users = createUserDirectory({
    fetch: slackUsersInfo(client),
    partition: ctx.slack.installationKey,
  });
  const inside = createInsideCheck({
    // Read per check: with OAuth the organisation is the installation's under way.
    app: ctx.identity,
    allowExternalUsers: config.access.allowExternalUsers,
    allowGuests: config.access.allowGuests,
    lookup: users.lookup,
    logger: ctx.logger,
  });
  return { users, inside };
}
