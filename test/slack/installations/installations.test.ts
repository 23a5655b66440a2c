import type { Installation } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { ThreadOutput } from '../../../src/conversation/thread-output-port.js';
import { ThreadOutputError } from '../../../src/conversation/turn/output-error.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { createSecretBox } from '../../../src/secrets/secret-box.js';
import { renderFailedPage, renderInstallPage } from '../../../src/slack/installations/install-pages.js';
import { createSealedInstallationStore } from '../../../src/slack/installations/installation-store.js';
import {
  InstallationWebClient,
  NoInstallationInScopeError,
} from '../../../src/slack/installations/installation-web-client.js';
import { scopedIdentity } from '../../../src/slack/installations/scoped-identity.js';
import { createSlackClients, InstallationGoneError } from '../../../src/slack/installations/slack-clients.js';
import { createTeamRouting, routeOutputByTeam } from '../../../src/slack/installations/team-routing.js';
import { createWorkspaceScope } from '../../../src/slack/installations/workspace-scope.js';
import { createMemoryStore } from '../../../src/store/index.js';

const TOKEN_A = 'xoxb-test-alpha-not-real';
const TOKEN_ORG = 'xoxb-test-org-not-real';

const workspaceInstall = {
  team: { id: 'T0ALPHA', name: 'Alpha' },
  enterprise: undefined,
  user: { id: 'UINSTALLER', token: undefined, scopes: undefined },
  bot: { token: TOKEN_A, scopes: ['chat:write'], id: 'BALPHA', userId: 'UBOTALPHA' },
  isEnterpriseInstall: false,
  authVersion: 'v2',
} as unknown as Installation;

const orgInstall = {
  team: undefined,
  enterprise: { id: 'E0GRID', name: 'Grid Corp' },
  user: { id: 'UINSTALLER', token: undefined, scopes: undefined },
  bot: { token: TOKEN_ORG, scopes: ['chat:write'], id: 'BGRID', userId: 'UBOTGRID' },
  isEnterpriseInstall: true,
  authVersion: 'v2',
} as unknown as Installation;

function setup() {
  const records = createMemoryStore();
  const store = createSealedInstallationStore({
    records,
    box: createSecretBox(Buffer.alloc(32, 3)),
    logger: silentLogger,
  });
  return { records, store };
}

describe('sealed installation store', () => {
  it('keeps a workspace install under its team and an org install under its enterprise, sealed', async () => {
    const { records, store } = setup();
    await store.storeInstallation(workspaceInstall);
    await store.storeInstallation(orgInstall);
    const sealed = [
      await records.getInstallationRecord('T0ALPHA'),
      await records.getInstallationRecord('E0GRID'),
    ];
    for (const record of sealed) {
      expect(record?.sealed).toMatch(/^v2\./);
      expect(JSON.stringify(record)).not.toMatch(/xoxb-|UBOT/);
    }
    expect(
      (
        await store.fetchInstallation({
          teamId: 'T0ALPHA',
          enterpriseId: undefined,
          isEnterpriseInstall: false,
        })
      ).bot?.token,
    ).toBe(TOKEN_A);
    // An event from any workspace of the org finds the org-wide install.
    const forSibling = await store.fetchInstallation({
      teamId: 'T0GRIDTWO',
      enterpriseId: 'E0GRID',
      isEnterpriseInstall: true,
    });
    expect(forSibling.bot?.token).toBe(TOKEN_ORG);
    await expect(
      store.fetchInstallation({ teamId: 'T0NEVER', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).rejects.toThrow(/no Slack installation for T0NEVER/);
    await store.deleteInstallation({ enterpriseId: 'E0GRID', teamId: undefined, isEnterpriseInstall: true });
    expect(await records.getInstallationRecord('E0GRID')).toBeUndefined();
    expect(await records.getInstallationRecord('T0ALPHA')).toBeDefined();
  });
});

describe('sealed installations know their record', () => {
  it("an installation copied under another installation's id does not open there", async () => {
    const { records, store } = setup();
    await store.storeInstallation(workspaceInstall);
    await store.storeInstallation(orgInstall);
    const alpha = await records.getInstallationRecord('T0ALPHA');
    // Someone with write access to the store pastes Alpha's sealed installation over the org's.
    await records.saveInstallationRecord('E0GRID', alpha as never);
    await records.saveInstallationRecord('T0BETA', alpha as never);
    await expect(store.fetchById('E0GRID')).rejects.toThrow(/integrity check/);
    await expect(
      store.fetchInstallation({ teamId: 'T0BETA', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).rejects.toThrow(/integrity check/);
    expect((await store.fetchById('T0ALPHA'))?.bot?.token).toBe(TOKEN_A);
  });

  it('an installation sealed before record binding (v1) opens once and is sealed again for its record', async () => {
    const box = createSecretBox(Buffer.alloc(32, 3));
    const { createCipheriv, randomBytes } = await import('node:crypto');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.alloc(32, 3), iv);
    cipher.setAAD(Buffer.from(`v1.${box.keyId}`));
    const body = Buffer.concat([cipher.update(JSON.stringify(workspaceInstall), 'utf8'), cipher.final()]);
    const legacy = [
      'v1',
      box.keyId,
      ...[iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')),
    ].join('.');
    const { records, store } = setup();
    await records.saveInstallationRecord('T0ALPHA', { sealed: legacy, savedAt: 1 });
    expect((await store.fetchById('T0ALPHA'))?.bot?.token).toBe(TOKEN_A);
    const resealed = await records.getInstallationRecord('T0ALPHA');
    expect(resealed?.sealed).toMatch(/^v2\./);
    await records.saveInstallationRecord('T0BETA', resealed as never);
    await expect(store.fetchById('T0BETA')).rejects.toThrow(/integrity check/);
  });
});

describe('per-installation clients and routing', () => {
  it('finds an installation by its thread team, with its bot as the identity', async () => {
    const { store } = setup();
    await store.storeInstallation(orgInstall);
    const clients = createSlackClients(store);
    expect(await clients.forTeam('E0GRID')).toEqual({
      installationId: 'E0GRID',
      botToken: TOKEN_ORG,
      identity: { botUserId: 'UBOTGRID', botId: 'BGRID', teamId: 'E0GRID', enterpriseId: 'E0GRID' },
    });
    await expect(clients.forTeam('T0NEVER')).rejects.toBeInstanceOf(InstallationGoneError);
  });

  it('runs each thread write in its installation’s scope; a gone installation is a permanent refusal', async () => {
    const { store } = setup();
    await store.storeInstallation(workspaceInstall);
    const scope = createWorkspaceScope();
    const identity = scopedIdentity(scope);
    const seen: string[] = [];
    const output = {
      postNotice: async () => {
        seen.push(`${scope.current()?.botToken} ${identity.botUserId}`);
      },
      postAnswer: async () => {
        throw new Error('socket hang up');
      },
    } as unknown as ThreadOutput;
    const routed = routeOutputByTeam(output, createTeamRouting(createSlackClients(store), scope));
    await routed.postNotice(
      { teamId: 'T0ALPHA', channel: 'C1', threadTs: '1.1' },
      { kind: 'canceled' },
      'turn-1',
    );
    expect(seen).toEqual([`${TOKEN_A} UBOTALPHA`]);
    const gone = await routed
      .postNotice({ teamId: 'T0GONE', channel: 'C1', threadTs: '1.1' }, { kind: 'canceled' }, 'turn-2')
      .catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ThreadOutputError);
    expect(gone).toMatchObject({ kind: 'permanent', code: 'installation_not_found' });
    // Other failures keep their own class (unclassified: transient).
    const other = await routed
      .postAnswer({ teamId: 'T0ALPHA', channel: 'C1', threadTs: '1.1' }, { markdown: 'x', turnId: 't' })
      .catch((error: unknown) => error);
    expect(other).toMatchObject({ message: 'socket hang up' });
    expect(other).not.toBeInstanceOf(ThreadOutputError);
  });

  it('refuses a Slack call or an identity read made outside any installation', async () => {
    const scope = createWorkspaceScope();
    const client = new InstallationWebClient(scope, { slackApiUrl: 'http://127.0.0.1:9/api/' });
    await expect(client.chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toBeInstanceOf(
      NoInstallationInScopeError,
    );
    expect(() => scopedIdentity(scope).botUserId).toThrow(NoInstallationInScopeError);
  });
});

describe('install pages', () => {
  it('escapes what goes into the page', () => {
    const html = renderInstallPage('https://slack.com/oauth/v2/authorize?client_id=1&scope=a,b&state="x"<');
    expect(html).toContain(
      'href="https://slack.com/oauth/v2/authorize?client_id=1&amp;scope=a,b&amp;state=&quot;x&quot;&lt;"',
    );
    expect(renderFailedPage('<b>odd</b>', '/slack/install')).toContain('&lt;b&gt;odd&lt;/b&gt;');
    expect(renderFailedPage('<b>odd</b>', '/slack/install')).toContain(
      'Slack did not complete the installation.',
    );
  });
});
