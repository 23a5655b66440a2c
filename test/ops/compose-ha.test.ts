import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/load-config.js';

/**
 * compose.yaml's `ha` profile without Docker: a primary, its replica and three sentinels, with
 * health checks, under two bot replicas that find the primary through the sentinels and share the
 * account's request budget (DESIGN "Redis beyond one node").
 */

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  profiles?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

const compose = parse(readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8'), {
  merge: true,
}) as {
  services: Record<string, Service>;
};
const ha = Object.entries(compose.services).filter(([, service]) => service.profiles?.includes('ha'));
const named = (pattern: RegExp) => ha.filter(([name]) => pattern.test(name));

describe("compose.yaml's ha profile", () => {
  it('runs a primary, a replica, three sentinels and two bots, each with a health check', () => {
    expect(ha.map(([name]) => name).sort()).toEqual(
      [
        'ha-bot-1',
        'ha-bot-2',
        'redis-primary',
        'redis-replica',
        'sentinel-1',
        'sentinel-2',
        'sentinel-3',
      ].sort(),
    );
    for (const [name, service] of ha) {
      expect(service.healthcheck?.test[0], name).toBe('CMD');
      expect(service.restart, name).toBe('unless-stopped');
    }
  });

  it('replicates the primary, and the sentinels watch it under the name the bots ask for', () => {
    const replica = compose.services['redis-replica']?.command ?? [];
    expect(replica.slice(replica.indexOf('--replicaof') + 1).slice(0, 2)).toEqual(['redis-primary', '6379']);
    const bots = named(/^ha-bot-/).map(([, service]) => service.environment ?? {});
    for (const [name, sentinel] of named(/^sentinel-/)) {
      const script = sentinel.command?.join(' ') ?? '';
      const monitor = /sentinel monitor (\S+) redis-primary 6379 (\d)/.exec(script);
      expect(monitor?.[1], name).toBe(bots[0]?.REDIS_SENTINEL_NAME);
      expect(Number(monitor?.[2]), `${name}'s quorum`).toBe(2);
      expect(script, name).toContain('--sentinel');
      expect(sentinel.healthcheck?.test, name).toContain('26379');
    }
  });

  it('points both bots at the three sentinels, one shared budget, names of their own', () => {
    const bots = named(/^ha-bot-/);
    const sentinels = named(/^sentinel-/).map(([name]) => `${name}:26379`);
    const env = (extra: Record<string, string>) => ({
      SLACK_BOT_TOKEN: 'xoxb-not-a-real-token',
      SLACK_SIGNING_SECRET: 'not-a-real-secret',
      AGENT_API_URL: 'https://api.example.test',
      AGENT_API_TOKEN: 'not-a-real-token',
      AGENT_ID: 'agent',
      ...extra,
    });
    for (const [name, service] of bots) {
      const config = loadConfig(env(service.environment ?? {}));
      expect(config.state.redis, name).toMatchObject({ kind: 'sentinel', name: 'sab-primary' });
      const listed = config.state.redis?.kind === 'sentinel' ? config.state.redis.sentinels : [];
      expect(listed.map((node) => `${node.host}:${node.port}`).sort(), name).toEqual(sentinels.sort());
      expect(config.agent.accountConcurrency, name).toBe(100);
      expect(Object.keys(service.depends_on ?? {}).sort(), name).toEqual([
        'sentinel-1',
        'sentinel-2',
        'sentinel-3',
      ]);
    }
    expect(new Set(bots.map(([, service]) => service.environment?.INSTANCE_ID)).size).toBe(2);
  });
});
