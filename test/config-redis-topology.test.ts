import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { configProblems, MINIMAL_ENV } from './support/config-env.js';

/** The contract row "Redis topologies": one of REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES. */
const minimal = MINIMAL_ENV;
const problems = (env: Record<string, string>) => configProblems({ ...minimal, ...env });

describe('Redis topologies in the configuration', () => {
  it('reads a URL, with credentials and TLS in it, as one server; nothing set is memory', () => {
    expect(loadConfig(minimal).state.redis).toBeUndefined();
    const url = 'rediss://default:pw-not-real@redis.example.test:6380';
    expect(loadConfig({ ...minimal, REDIS_URL: url }).state.redis).toEqual({ kind: 'single', url });
  });

  it('reads sentinels with the primary name, node credentials, TLS and the sentinels’ password', () => {
    const config = loadConfig({
      ...minimal,
      REDIS_SENTINELS: 's1.example.test:26379, s2.example.test:26379,[::1]:26380',
      REDIS_SENTINEL_NAME: 'mymaster',
      REDIS_USERNAME: 'bot',
      REDIS_PASSWORD: 'pw-not-real',
      REDIS_SENTINEL_PASSWORD: 'spw-not-real',
      REDIS_TLS: 'true',
    });
    expect(config.state.redis).toEqual({
      kind: 'sentinel',
      name: 'mymaster',
      sentinels: [
        { host: 's1.example.test', port: 26379 },
        { host: 's2.example.test', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      auth: { username: 'bot', password: 'pw-not-real', tls: true },
      sentinelPassword: 'spw-not-real',
    });
  });

  it('reads cluster nodes', () => {
    const config = loadConfig({
      ...minimal,
      REDIS_CLUSTER_NODES: 'n1:7000,n2:7001',
      REDIS_PASSWORD: 'pw-not-real',
    });
    expect(config.state.redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
      ],
      auth: { username: undefined, password: 'pw-not-real', tls: false },
    });
  });

  it('refuses two topologies at once, sentinels without a name, and a node that is not host:port', () => {
    expect(problems({ REDIS_URL: 'redis://r:6379', REDIS_CLUSTER_NODES: 'n1:7000' })).toEqual([
      'REDIS_URL: set only one of REDIS_URL, REDIS_CLUSTER_NODES',
      'REDIS_CLUSTER_NODES: set only one of REDIS_URL, REDIS_CLUSTER_NODES',
    ]);
    expect(problems({ REDIS_SENTINELS: 's1:26379' })).toEqual([
      'REDIS_SENTINEL_NAME: is required with REDIS_SENTINELS (the name the sentinels monitor the primary by)',
    ]);
    expect(problems({ REDIS_CLUSTER_NODES: 'n1:7000,n2' })[0]).toMatch(
      /^REDIS_CLUSTER_NODES: "n2" is not host:port/,
    );
    expect(problems({ REDIS_SENTINELS: 's1:99999', REDIS_SENTINEL_NAME: 'm' })[0]).toMatch(
      /^REDIS_SENTINELS:/,
    );
  });

  it('asks for URL credentials in the URL, not in REDIS_PASSWORD', () => {
    expect(
      problems({ REDIS_URL: 'redis://r:6379', REDIS_PASSWORD: 'pw-not-real', REDIS_TLS: 'true' }),
    ).toEqual([
      'REDIS_PASSWORD: applies to REDIS_SENTINELS and REDIS_CLUSTER_NODES: with REDIS_URL, put credentials in the URL (rediss:// for TLS)',
      'REDIS_TLS: applies to REDIS_SENTINELS and REDIS_CLUSTER_NODES: with REDIS_URL, put credentials in the URL (rediss:// for TLS)',
    ]);
  });

  it('reads the account budget, default 100, at least 1', () => {
    expect(loadConfig(minimal).agent.accountConcurrency).toBe(100);
    expect(loadConfig({ ...minimal, AGENT_ACCOUNT_CONCURRENCY: '40' }).agent.accountConcurrency).toBe(40);
    expect(problems({ AGENT_ACCOUNT_CONCURRENCY: '0' })[0]).toMatch(/^AGENT_ACCOUNT_CONCURRENCY:/);
  });
});
