import { createAdminCheck } from '../commands/access.js';
import type { Config } from '../config/load-config.js';
import type { ServiceConnections } from '../connections/service-connections.js';
import type { InsideCheck } from '../conversation/access/who-is-inside.js';
import type { AnswerChannels } from '../conversation/answer-channels/answer-channels.js';
import type { Schedules } from '../conversation/schedules/schedules.js';
import type { Tenant } from '../conversation/tenancy.js';
import { createHomeActivity } from '../home/home-activity.js';
import { createHomeData } from '../home/home-data.js';
import { registryConnections } from '../home/service-connections.js';
import { installationWatches } from '../home/watched-channels.js';
import type { Clock } from '../runtime/clock.js';
import type { Logger } from '../runtime/logger.js';
import { createAppHome } from '../slack/app-home.js';
import type { SlackIdentity } from '../slack/slack-identity.js';
import type { UserDirectory } from '../slack/user-directory.js';
import type { StateStore } from '../store/index.js';

/**
 * App Home's room (DESIGN "App Home"): what a person's home shows, gathered from the store, the
 * service connections and the watched channels, and the activity that re-publishes it when the
 * person's threads change.
 */
export function wireAppHome(deps: {
  config: Config;
  store: StateStore;
  /** Answer channels (`/agent channel answer-all`), listed on the admins' home. */
  answerChannels?: Pick<AnswerChannels, 'list'> | undefined;
  /** Scheduled questions (`/agent schedule`), listed on the admins' home. */
  schedules?: Pick<Schedules, 'ofInstallation'> | undefined;
  inside: InsideCheck;
  identity: SlackIdentity;
  users: UserDirectory;
  connections: ServiceConnections;
  /** The Web client App Home publishes with (Bolt's type, kept in slack/). */
  client: Parameters<typeof createAppHome>[0]['client'];
  clock: Clock;
  logger: Logger;
  /** Runs a later publish in the installation a turn names, with its tenant (slack-wiring.ts). */
  within: (teamId: string, work: (tenant: Tenant) => Promise<void>) => Promise<void>;
}) {
  const { config, store, inside, identity, users, connections, clock, logger } = deps;
  const appHome = createAppHome({
    client: deps.client,
    data: createHomeData({
      store,
      inside,
      admins: createAdminCheck({
        adminUserIds: config.access.adminUserIds,
        // Read per person: with OAuth the organisation is the event's installation's.
        app: identity,
        lookupUser: users.lookup,
      }),
      // Every service connection, the default one first, as `/agent connections` lists them.
      connections: registryConnections({
        list: (tenant) => connections.admin.list(tenant),
        aliases: (tenant) => connections.admin.aliases(tenant),
        now: () => clock.now(),
      }),
      watched: installationWatches({ store }),
      answerChannels: deps.answerChannels,
      schedules: deps.schedules,
      defaultAgentId: config.agent.agentId,
      prompts: config.agentView.suggestedPrompts,
      now: () => clock.now(),
      logger,
    }),
    // Read per publish: with OAuth the workspace and the bot are the event's installation's.
    view: {
      get workspaceUrl() {
        return identity.url;
      },
      get botUserId() {
        return identity.botUserId;
      },
    },
    logger,
    within: deps.within,
    republishIntervalMs: config.home.republishMs,
    now: () => clock.now(),
  });
  // What turns and ratings write for App Home, and the re-publish of the asker's home.
  const homeActivity = createHomeActivity({
    store,
    now: () => clock.now(),
    logger,
    onThreadsChanged: appHome.threadsChanged,
    byInstallation: config.slack.oauth !== undefined,
  });
  return { appHome, homeActivity };
}
