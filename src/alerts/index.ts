/** Alert investigations (DESIGN "Alert investigations"), assembled once in the composition root. */
import { createRunStart, type RunStartDeps } from '../conversation/turn/run-start.js';
import { type AlertIntakeDeps, createAlertIntake } from './alert-intake.js';
import type { AlertInstallations, AlertMetrics, AlertOutput, ChannelWatchStore } from './alert-ports.js';
import type { AlertTokens } from './alert-tokens.js';
import { createWatchedChannels } from './watched-channels.js';
import { alertWebhookRoute } from './webhook-route.js';

export type { AlertInstallations } from './alert-ports.js';
export { type AlertTokens, createAlertTokens } from './alert-tokens.js';
export type { WatchedChannels } from './watched-channels.js';
export { type WatchedMessage, watchedAlert } from './watched-message.js';

/** What the composition root hands alert investigations: the run start's, the intake's, and the route's. */
export interface AlertInvestigationsDeps
  extends Omit<RunStartDeps, 'refuseBusy' | 'newId' | 'logger' | 'clock' | 'metrics'>,
    Pick<AlertIntakeDeps, 'audience' | 'channelAgents' | 'clock' | 'logger'> {
  store: AlertIntakeDeps['store'] & ChannelWatchStore;
  alertOutput: AlertOutput;
  metrics: AlertMetrics & RunStartDeps['metrics'];
  config: Omit<AlertIntakeDeps['settings'], 'botUserId'> & {
    webhookToken: string | undefined;
    defaultChannelId: string | undefined;
    outsiderPolicy: 'dm' | 'thread' | 'refuse';
  };
  identity: { botUserId: string };
  installations: AlertInstallations;
  tokens?: AlertTokens | undefined;
}

export function createAlertInvestigations(deps: AlertInvestigationsDeps) {
  const { config, logger, clock } = deps;
  const log = logger.child({ component: 'alerts' });
  const runStart = createRunStart({
    ...deps,
    logger: log,
    // A new alert thread is never busy, unless someone asked in it first: then that turn goes on.
    refuseBusy: (request) =>
      log.info({ channel: request.channel, ts: request.threadTs }, 'alert thread busy: not investigated'),
  });
  const intake = createAlertIntake({
    ...deps,
    output: deps.alertOutput,
    policy: config.outsiderPolicy,
    runStart,
    logger: log,
    // The identity is read per alert, not copied: with OAuth it is the installation's in scope.
    settings: {
      ...config,
      get botUserId() {
        return deps.identity.botUserId;
      },
    },
  });
  const watched = createWatchedChannels({ store: deps.store, now: () => clock.now() });
  const route = alertWebhookRoute({
    ...deps,
    token: config.webhookToken,
    defaultChannelId: config.defaultChannelId,
    intake,
    logger: log,
  });
  return { intake, watched, route, tokens: deps.tokens };
}

export type AlertInvestigations = ReturnType<typeof createAlertInvestigations>;
