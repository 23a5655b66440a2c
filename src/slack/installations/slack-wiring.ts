import type { WebClient } from '@slack/web-api';
import type { Config } from '../../config/load-config.js';
import type { AgentSessionPort } from '../../conversation/agent-session.js';
import type { ThreadOutput } from '../../conversation/thread-output-port.js';
import type { ThreadStatusPort } from '../../conversation/turn/turn-progress.js';
import { toSlackLogger } from '../../logging.js';
import type { Logger } from '../../runtime/logger.js';
import type { InstallationRecordStore } from '../../store/index.js';
import type { SlackIdentity } from '../slack-identity.js';
import {
  createFailFastWebClient,
  createWebClient,
  FAIL_FAST_OPTIONS,
  webClientOptions,
} from '../web-client.js';
import { InstallationWebClient } from './installation-web-client.js';
import { createSlackInstallations, type SlackInstallations } from './oauth-setup.js';
import { routeOutputByTeam, routeSessionsByTeam, routeStatusByTeam } from './team-routing.js';

/** The Slack side the composition root builds, alike for one workspace and for many (OAuth). */
export interface SlackWiring {
  identity: SlackIdentity;
  installations: SlackInstallations | undefined;
  /** The installation under way (OAuth), for caches of per-workspace answers; undefined with one. */
  installationKey(): string | undefined;
  /** The bot token of the installation under way (file downloads send it themselves). */
  botToken(): string | undefined;
  /** A Web client with the Slack retry policy (answers, progress, people, audience). */
  webClient(): WebClient;
  /** A client for reads a turn can do without: fails at once on a 429 or a slow Slack. */
  failFastWebClient(): WebClient;
  routeOutput(output: ThreadOutput): ThreadOutput;
  routeStatus(status: ThreadStatusPort): ThreadStatusPort;
  routeSessions(sessions: AgentSessionPort): AgentSessionPort;
  /** Runs later work (a poll result, a home republish) in the installation a turn record's team names. */
  within<T>(teamId: string, work: () => Promise<T>): Promise<T>;
}

export function createSlackWiring(deps: {
  config: Config;
  logger: Logger;
  /** `auth.test`'s answer in single-workspace mode; undefined with OAuth. */
  checkedIdentity: SlackIdentity | undefined;
  records: InstallationRecordStore;
}): SlackWiring {
  const { config, logger, checkedIdentity } = deps;
  if (!config.slack.oauth) {
    if (!checkedIdentity) throw new Error('single-workspace mode needs the identity auth.test gave');
    return {
      identity: checkedIdentity,
      installations: undefined,
      installationKey: () => undefined,
      botToken: () => config.slack.botToken,
      webClient: () => createWebClient(config, logger),
      failFastWebClient: () => createFailFastWebClient(config, logger),
      routeOutput: (output) => output,
      routeStatus: (status) => status,
      routeSessions: (sessions) => sessions,
      within: (_teamId, work) => work(),
    };
  }
  const installations = createSlackInstallations({
    oauth: config.slack.oauth,
    installTeamIds: config.tenants.installTeamIds,
    secrets: config.secrets,
    records: deps.records,
    logger,
  });
  const options = webClientOptions(config, toSlackLogger(logger));
  return {
    identity: installations.identity,
    installations,
    installationKey: () => installations.scope.current()?.installationId,
    botToken: () => installations.scope.current()?.botToken,
    webClient: () => new InstallationWebClient(installations.scope, options),
    failFastWebClient: () =>
      new InstallationWebClient(installations.scope, { ...options, ...FAIL_FAST_OPTIONS }),
    routeOutput: (output) => routeOutputByTeam(output, installations.routing),
    routeStatus: (status) => routeStatusByTeam(status, installations.routing),
    routeSessions: (sessions) => routeSessionsByTeam(sessions, installations.routing),
    within: (teamId, work) => installations.routing.within(teamId, work),
  };
}
