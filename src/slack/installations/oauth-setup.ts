import type { ServerResponse } from 'node:http';
import type { App, Context, HTTPReceiverOptions, Installation, InstallationStore } from '@slack/bolt';
import type { WebClientOptions } from '@slack/web-api';
import type { SlackOAuthConfig } from '../../config/load-config.js';
import type { Logger } from '../../runtime/logger.js';
import { createSecretBox } from '../../secrets/secret-box.js';
import type { InstallationRecordStore } from '../../store/index.js';
import { SlackStartupError } from '../startup-check.js';
import { BOT_SCOPES } from './bot-scopes.js';
import {
  INSTALL_NOT_ALLOWED,
  renderFailedPage,
  renderInstalledPage,
  renderInstallPage,
} from './install-pages.js';
import { createSealedInstallationStore, installationIdOf } from './installation-store.js';
import { registerInstallationListeners } from './listeners/index.js';
import { scopedIdentity } from './scoped-identity.js';
import { createSlackClients } from './slack-clients.js';
import { createTeamRouting } from './team-routing.js';
import { createWorkspaceScope, type SlackWorkspace, workspaceOf } from './workspace-scope.js';

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';

/** Installer error codes that are the browser's or the person's doing, not the server's. */
const CLIENT_SIDE_FAILURES = new Set([
  'slack_oauth_invalid_state',
  'slack_oauth_missing_state',
  'slack_oauth_missing_code',
  'slack_oauth_installer_authorization_error',
]);

/** Everything OAuth distribution adds (DESIGN "Many workspaces"), built once at start-up. */
export type SlackInstallations = ReturnType<typeof createSlackInstallations>;

/** The installation a Bolt event was authorized for (its context), as a workspace scope. */
export function workspaceOfContext(context: Context): SlackWorkspace | undefined {
  const installationId = installationIdOf(context);
  const { botToken, botUserId, botId, enterpriseId } = context;
  if (!installationId || !botToken || !botUserId) return undefined;
  return workspaceOf(installationId, botToken, { botUserId, botId: botId ?? '', enterpriseId });
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/**
 * Whether INSTALL_TEAM_IDS lets this installation in (DESIGN "Who may install"): its workspace, or
 * its org (an org-wide install, or a workspace of a listed org). Unset: anyone.
 */
function mayInstall(installation: Installation, allowed: readonly string[] | undefined): boolean {
  if (!allowed) return true;
  const ids = [installation.team?.id, installation.enterprise?.id].filter((id) => id !== undefined);
  return ids.some((id) => allowed.includes(id));
}

type InstallationsDeps = Parameters<typeof createSlackInstallations>[0];

/** The install flow: Slack's authorize page, who may install (INSTALL_TEAM_IDS), the pages after. */
function installerOptions(deps: InstallationsDeps, store: InstallationStore, options: WebClientOptions) {
  const { oauth, logger } = deps;
  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    stateSecret: oauth.stateSecret,
    ...(oauth.redirectUri ? { redirectUri: oauth.redirectUri } : {}),
    scopes: [...BOT_SCOPES],
    installationStore: store,
    installerOptions: {
      installPath: INSTALL_PATH,
      redirectUriPath: REDIRECT_PATH,
      directInstall: false,
      // The state travels in a cookie and in the URL: a link opened in another browser is refused.
      stateVerification: true,
      authorizationUrl: oauth.authorizeUrl,
      // oauth.v2.access and auth.test go where the bot's other calls go (SLACK_API_URL).
      clientOptions: options,
      renderHtmlForInstallPath: renderInstallPage,
      callbackOptions: {
        // After Slack granted the install, before the installer stores it: refused ⇒ nothing kept.
        afterInstallation: async (installation, _options, _req, res) => {
          if (mayInstall(installation, deps.installTeamIds)) return true;
          const place = installation.enterprise?.id ?? installation.team?.id;
          logger.warn({ place }, 'an install from outside INSTALL_TEAM_IDS was refused; nothing stored');
          sendHtml(res, 403, renderFailedPage(INSTALL_NOT_ALLOWED, INSTALL_PATH));
          return false;
        },
        success: (installation, _options, _req, res) => {
          const orgWide = installation.isEnterpriseInstall === true;
          const name = orgWide ? installation.enterprise?.name : installation.team?.name;
          sendHtml(res, 200, renderInstalledPage({ name, orgWide }));
        },
        failure: (error, _options, _req, res) => {
          const code = error.code ?? 'slack_oauth_unknown_error';
          logger.warn({ code }, 'a Slack installation did not complete');
          sendHtml(res, CLIENT_SIDE_FAILURES.has(code) ? 400 : 502, renderFailedPage(code, INSTALL_PATH));
        },
      },
    },
  } satisfies Partial<HTTPReceiverOptions>;
}

export function createSlackInstallations(deps: {
  oauth: SlackOAuthConfig;
  /** INSTALL_TEAM_IDS; undefined: anyone may install. */
  installTeamIds?: readonly string[] | undefined;
  secrets: { encryptionKey: Buffer | undefined; previousKeys: Buffer[] };
  records: InstallationRecordStore;
  logger: Logger;
}) {
  const { logger } = deps;
  if (!deps.secrets.encryptionKey) {
    throw new SlackStartupError(
      'OAuth distribution keeps each Slack installation (its tokens) in the store, sealed: set STATE_ENCRYPTION_KEY (32 bytes in base64, `openssl rand -base64 32`)',
    );
  }
  const box = createSecretBox(deps.secrets.encryptionKey, deps.secrets.previousKeys);
  const store = createSealedInstallationStore({ records: deps.records, box, logger });
  const scope = createWorkspaceScope();
  const clients = createSlackClients(store);
  const routing = createTeamRouting(clients, scope);

  async function forget(context: Context, why: string): Promise<void> {
    const id = installationIdOf(context);
    if (!id) return;
    const { teamId, enterpriseId, isEnterpriseInstall } = context;
    await store.deleteInstallation({ teamId, enterpriseId, isEnterpriseInstall });
    clients.forget(id);
    logger.info({ installation: id, why }, 'Slack installation removed');
  }

  return {
    scope,
    clients,
    routing,
    identity: scopedIdentity(scope),
    /** The HTTPReceiver's OAuth options: Bolt's InstallProvider serves the install and redirect paths. */
    receiverOptions: (options: WebClientOptions) => installerOptions(deps, store, options),
    /** Enters each event's installation scope, and forgets installations Slack says are gone. */
    register(app: App): void {
      app.use(async ({ context, next }) => {
        const workspace = workspaceOfContext(context);
        if (workspace) await scope.run(workspace, next);
        else await next();
      });
      registerInstallationListeners(app, { forget, logger });
    },
  };
}
