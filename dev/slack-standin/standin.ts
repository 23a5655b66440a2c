import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_APP_ID,
  DEFAULT_BOT_ID,
  DEFAULT_BOT_USER_ID,
  DEFAULT_TEAM_ID,
  defaultUsers,
} from './defaults.js';
import { FaultPlan, type Outage } from './faults.js';
import { StandinView } from './inspection.js';
import { StandinOAuth, type StandinOAuthOptions } from './oauth.js';
import { OAUTH_AUTHORIZE_PATH } from './oauth-routes.js';
import { API_PATH_PREFIX, createRequestListener, RESPONSE_PATH_PREFIX } from './router.js';
import type { FileDownload, SharedFileInput } from './shared-files.js';
import { type SocketAck, type SocketEnvelope, SocketModeStandin } from './socket-mode.js';
import { StandinState } from './state.js';
import type { StandinConversation, StandinUser } from './types.js';

/** Options of {@link startSlackStandin}; every one has a default. */
export interface SlackStandinOptions {
  /** Default '127.0.0.1' (loopback only). */
  host?: string;
  /** Default 0 (an ephemeral port). */
  port?: number;
  /**
   * The address the stand-in gives out (Socket Mode and upload URLs) when the bot reaches it by
   * another name than host:port, e.g. 'http://slack-standin:3100' in a container network.
   */
  publicUrl?: string;
  /** The only bot token accepted. Default: any token starting with 'xoxb-'. */
  botToken?: string;
  /** The only app-level token accepted by apps.connections.open. Default: any starting with 'xapp-'. */
  appToken?: string;
  /** Default 'T0TEST'. */
  teamId?: string;
  /** Default 'UBOT'. */
  botUserId?: string;
  /** Default 'B0BOT'. */
  botId?: string;
  /** Default 'A0APP'. */
  appId?: string;
  /** The workspace's Enterprise Grid org (auth.test `enterprise_id`). Default none. */
  enterpriseId?: string;
  /** The users.info table. Default: admin UADMIN, owner UOWNER, members UALICE and UBOB, UEXTERNAL, the bot. */
  users?: StandinUser[];
  /** More users.info entries besides `users` (e.g. people of other workspaces or Grid orgs). */
  extraUsers?: StandinUser[];
  /**
   * Conversations with their sharing flags and members (conversations.info / .members). Undeclared
   * ones are plain channels of the workspace's own people (see StandinConversation).
   */
  conversations?: StandinConversation[];
  /** Channels the bot is not a member of (not_in_channel). Default none. */
  notInChannels?: string[];
  /** Channels that do not exist (channel_not_found). Default none: every other id is accepted. */
  missingChannels?: string[];
  /** Socket Mode server ping interval. Default 10,000 ms. */
  socketPingIntervalMs?: number;
  /**
   * OAuth distribution: the app's credentials and the places it can be installed (oauth.ts). Set ⇒
   * only tokens issued by `oauth.v2.access` are accepted, each for its own installation.
   */
  oauth?: StandinOAuthOptions;
}

/** The Socket Mode side of the stand-in. */
export interface SocketModeControls {
  /** Sends an envelope to the connected client; resolves with its ack (default timeout 3,000 ms). */
  send(envelope: SocketEnvelope, options?: { timeoutMs?: number }): Promise<SocketAck>;
  /** True while a client is connected. */
  connected(): boolean;
  /** Resolves once a client is connected (default timeout 5,000 ms). */
  waitForConnection(options?: { timeoutMs?: number }): Promise<void>;
  /** Sends Slack's `disconnect` message; the client reconnects through apps.connections.open. */
  requestReconnect(reason?: 'refresh_requested' | 'warning' | 'link_disabled'): void;
  /** Every ack received, in order. */
  readonly acks: readonly SocketAck[];
}

/** A running Slack stand-in: a real HTTP (and WebSocket) server plus what a person would see. */
export class SlackStandin extends StandinView {
  /** e.g. 'http://127.0.0.1:PORT' */
  readonly url: string;
  /** The Web API base URL for `SLACK_API_URL` / `slackApiUrl`: 'http://127.0.0.1:PORT/api/'. */
  readonly apiUrl: string;
  readonly teamId: string;
  readonly botUserId: string;
  readonly botId: string;
  readonly appId: string;
  /** Socket Mode: envelopes out, acks back. */
  readonly socket: SocketModeControls;
  /** OAuth: Slack's authorize page on this stand-in (for SLACK_AUTHORIZE_URL). */
  readonly authorizeUrl: string;

  constructor(
    state: StandinState,
    private readonly server: Server,
    private readonly faults: FaultPlan,
    private readonly socketMode: SocketModeStandin,
    url: string,
    /** OAuth distribution (when started with `oauth`): codes, tokens, revocation. */
    readonly oauth: StandinOAuth | undefined = undefined,
  ) {
    super(state);
    this.url = url;
    this.authorizeUrl = `${url}${OAUTH_AUTHORIZE_PATH}`;
    this.apiUrl = `${url}${API_PATH_PREFIX}`;
    ({
      teamId: this.teamId,
      botUserId: this.botUserId,
      botId: this.botId,
      appId: this.appId,
    } = state.identity);
    this.socket = {
      send: (envelope, options) => socketMode.send(envelope, options),
      connected: () => socketMode.connected(),
      waitForConnection: (options) => socketMode.waitForConnection(options),
      requestReconnect: (reason) => socketMode.requestReconnect(reason),
      get acks() {
        return socketMode.acks;
      },
    };
  }

  /**
   * Declares (or changes) a conversation's sharing flags and members, as an admin sharing a channel
   * or inviting a guest would; send the matching event (channel_shared, member_joined_channel…) too.
   */
  setConversation(conversation: StandinConversation): void {
    this.state.conversations.set(conversation.id, conversation);
    this.state.touch();
  }

  /** The next `count` calls of `method` get HTTP 429 with `Retry-After: retryAfterSec`. */
  rateLimitNext(method: string, retryAfterSec: number, count = 1): void {
    this.faults.rateLimitNext(method, retryAfterSec, count);
  }

  /** The next call of `method` answers `{ok:false, error}` (queued). */
  failNext(method: string, error: string): void {
    this.faults.failNext(method, error);
  }

  /**
   * The next `count` calls of `method` are carried out (a message is posted…) but never answered:
   * what a caller sees when Slack accepted a call and the answer did not reach it before it died.
   */
  leaveUnansweredNext(method: string, count = 1): void {
    this.faults.leaveUnansweredNext(method, count);
  }

  /**
   * The next call of `method` is carried out (a message is posted…) at once, but its answer waits
   * until the returned `release()` is called: a test can act between Slack's work and the caller's
   * hearing of it (e.g. stop the bot's store after its answer landed, before it can mark it).
   */
  holdAnswerNext(method: string): () => void {
    return this.faults.holdAnswerNext(method);
  }

  /**
   * A lasting outage until cleared: calls of `method` (`*`: every Web API method) answer HTTP
   * `status` (e.g. 500), or with `{ drop: true }` have their connection closed without an answer
   * (what a client sees of a Slack it cannot reach). `undefined` ends it.
   */
  setOutage(method: string, outage: Outage | undefined): void {
    this.faults.setOutage(method, outage);
  }

  /**
   * A file a person shares: returns Slack's file object (its `url_private_download` on this
   * stand-in), to put on the person's message (`files`). Its download wants the bot token.
   */
  shareFile(input: SharedFileInput): Record<string, unknown> & { id: string } {
    return this.state.sharedFiles.share(input, { baseUrl: this.url, teamId: this.teamId }) as Record<
      string,
      unknown
    > & { id: string };
  }

  /** The next `count` downloads of a shared file answer HTTP `status` (e.g. 500). */
  failFileDownloadNext(fileId: string, status = 500, count = 1): void {
    this.state.sharedFiles.failNext(fileId, status, count);
  }

  /** Every download of a shared file so far, in order. */
  fileDownloads(): readonly FileDownload[] {
    return this.state.sharedFiles.downloads;
  }

  /** A slash command response_url on this stand-in: `${url}/response/<id>` (id generated when left out). */
  responseUrl(id: string = randomUUID()): string {
    return `${this.url}${RESPONSE_PATH_PREFIX}${encodeURIComponent(id)}`;
  }

  /** Stops the server and closes every connection. */
  async close(): Promise<void> {
    await this.socketMode.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Starts a Slack stand-in on loopback (port 0 by default) and resolves once it listens. */
export async function startSlackStandin(options: SlackStandinOptions = {}): Promise<SlackStandin> {
  const teamId = options.teamId ?? DEFAULT_TEAM_ID;
  const botUserId = options.botUserId ?? DEFAULT_BOT_USER_ID;
  const identity = {
    teamId,
    botUserId,
    botId: options.botId ?? DEFAULT_BOT_ID,
    appId: options.appId ?? DEFAULT_APP_ID,
    enterpriseId: options.enterpriseId,
  };
  const state = new StandinState(identity);
  for (const user of [...(options.users ?? defaultUsers(teamId, botUserId)), ...(options.extraUsers ?? [])]) {
    state.users.set(user.id, user);
  }
  for (const conversation of options.conversations ?? [])
    state.conversations.set(conversation.id, conversation);
  for (const channel of options.notInChannels ?? []) state.notInChannel.add(channel);
  for (const channel of options.missingChannels ?? []) state.missingChannels.add(channel);
  const faults = new FaultPlan();
  const socketMode = new SocketModeStandin({
    appId: identity.appId,
    ...(options.socketPingIntervalMs ? { pingIntervalMs: options.socketPingIntervalMs } : {}),
  });
  let baseUrl = '';
  const oauth = options.oauth ? new StandinOAuth(options.oauth) : undefined;
  const server = createServer(
    createRequestListener({
      state,
      faults,
      socket: socketMode,
      acceptsBotToken: (t) => (options.botToken ? t === options.botToken : t.startsWith('xoxb-')),
      acceptsAppToken: (t) => (options.appToken ? t === options.appToken : t.startsWith('xapp-')),
      baseUrl: () => baseUrl,
      oauth,
    }),
  );
  server.on('upgrade', (req, socket, head) => socketMode.handleUpgrade(req, socket, head));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = options.publicUrl?.replace(/\/+$/, '') ?? `http://${host}:${port}`;
  return new SlackStandin(state, server, faults, socketMode, baseUrl, oauth);
}
