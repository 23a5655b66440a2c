import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { createTenancy, defaultHomeTeamIds, tenantName } from '../src/conversation/tenancy.js';
import { configProblems as problems } from './support/config-env.js';

/** DESIGN "The home workspaces" and "Who may install": HOME_TEAM_IDS and INSTALL_TEAM_IDS. */

const base = {
  SLACK_SIGNING_SECRET: 'test-secret',
  AGENT_API_URL: 'api-eu.logz.io',
  AGENT_API_TOKEN: 'test-agent-token',
  AGENT_ID: 'agent-1',
};
const oneWorkspace = { ...base, SLACK_BOT_TOKEN: 'xoxb-fake-not-real' };
const oauth = {
  ...base,
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'test-client-secret-not-real',
  SLACK_STATE_SECRET: 'test-state-secret-not-real',
  STATE_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};

describe('HOME_TEAM_IDS and INSTALL_TEAM_IDS', () => {
  it('are unset by default', () => {
    expect(loadConfig(oauth).tenants).toEqual({ homeTeamIds: undefined, installTeamIds: undefined });
    expect(loadConfig({ ...oauth, HOME_TEAM_IDS: ' ' }).tenants.homeTeamIds).toBeUndefined();
  });

  it('read comma-separated workspace and org ids', () => {
    const config = loadConfig({ ...oauth, HOME_TEAM_IDS: 'T0ALPHA, E0GRID', INSTALL_TEAM_IDS: 'E0GRID' });
    expect(config.tenants).toEqual({ homeTeamIds: ['T0ALPHA', 'E0GRID'], installTeamIds: ['E0GRID'] });
  });

  it('refuse what is not a workspace or org id', () => {
    expect(problems({ ...oauth, HOME_TEAM_IDS: 'T0ALPHA,C0CHAN' })).toEqual([
      'HOME_TEAM_IDS: must be Slack workspace ids (T…) or org ids (E…), comma-separated',
    ]);
    expect(problems({ ...oauth, INSTALL_TEAM_IDS: 'alpha' })).toEqual([
      'INSTALL_TEAM_IDS: must be Slack workspace ids (T…) or org ids (E…), comma-separated',
    ]);
  });

  it('refuse INSTALL_TEAM_IDS without OAuth: with one workspace nobody installs', () => {
    expect(problems({ ...oneWorkspace, INSTALL_TEAM_IDS: 'T0ALPHA' })).toEqual([
      'INSTALL_TEAM_IDS: applies to OAuth distribution only (SLACK_CLIENT_ID): with SLACK_BOT_TOKEN nobody installs',
    ]);
  });
});

describe('tenancy', () => {
  it('defaults the home to one workspace and its org; with OAuth to none', () => {
    expect(defaultHomeTeamIds(undefined, { teamId: 'T1', enterpriseId: 'E1' })).toEqual(['T1', 'E1']);
    expect(defaultHomeTeamIds(undefined, { teamId: 'T1' })).toEqual(['T1']);
    expect(defaultHomeTeamIds(undefined, undefined)).toEqual([]);
    expect(defaultHomeTeamIds(['T2'], { teamId: 'T1' })).toEqual(['T2']);
  });

  it('makes a workspace of a home org home, and keys installations only with OAuth', () => {
    const many = createTenancy({ homeTeamIds: ['E0GRID', 'T0ALPHA'], many: true });
    expect(many.of({ teamId: 'T0ALPHA' })).toEqual({ teamId: 'T0ALPHA', home: true, key: 'T0ALPHA' });
    expect(many.of({ teamId: 'T0SIB', enterpriseId: 'E0GRID' }).home).toBe(true);
    expect(many.of({ teamId: 'T0BETA' }).home).toBe(false);
    const one = createTenancy({ homeTeamIds: ['T1'], many: false });
    expect(one.of({ teamId: 'T1' })).toEqual({ teamId: 'T1', home: true, key: undefined });
    // One workspace keeps the names it had before installations: its data survives.
    expect(tenantName(one.keyOf('T1'), 'C1')).toBe('C1');
    expect(tenantName(many.keyOf('T0ALPHA'), 'C1')).toBe('T0ALPHA:C1');
  });
});
