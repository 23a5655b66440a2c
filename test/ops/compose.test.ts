import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SIM_AGENTS, SIM_TOKENS } from '../../dev/simulator/index.js';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config/load-config.js';

/**
 * compose.yaml without Docker (it cannot run on our machines): the file parses, builds the
 * Dockerfile's image and stages, sets only variables the bot reads, gives every service a health
 * check and a restart policy, divides the service's 100-request budget, and wires the sandbox
 * profile's bots to the simulator and the Slack stand-in it runs.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

interface Service {
  image?: string;
  build?: { context: string; target?: string };
  command?: string[];
  environment?: Record<string, string>;
  env_file?: Array<{ path: string; required?: boolean }>;
  profiles?: string[];
  restart?: string;
  healthcheck?: { test: string[]; interval?: string };
  depends_on?: Record<string, { condition: string }>;
}

// Compose understands YAML merge keys (`<<: *bot`); so must the parser here.
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
const services = Object.entries(compose.services);
const isBot = ([, service]: [string, Service]) => service.build?.target === 'runtime';
const productionBots = services.filter((entry) => isBot(entry) && !entry[1].profiles);
const sandboxBots = services.filter((entry) => isBot(entry) && entry[1].profiles?.includes('sandbox'));

/** The Dockerfile's stage names, and the image tag its header tells people to build. */
function dockerfile() {
  const text = read('Dockerfile');
  const stages = [...text.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((m) => m[1]);
  const tag = /docker build -t (\S+) \./.exec(text)?.[1];
  return { stages, tag, lastStage: stages.at(-1) };
}

function commandOption(service: Service | undefined, name: string): string[] {
  const command = service?.command ?? [];
  return command.flatMap((arg, i) => (arg === `--${name}` ? [command[i + 1] as string] : []));
}

describe('compose.yaml', () => {
  it('runs Redis and two replicas of the bot by default, and two more in the sandbox profile', () => {
    expect(compose.services.redis?.image).toMatch(/^redis:/);
    expect(productionBots.map(([name]) => name)).toEqual(['bot-1', 'bot-2']);
    expect(sandboxBots.map(([name]) => name)).toEqual(['sandbox-bot-1', 'sandbox-bot-2']);
  });

  it("builds the Dockerfile's image: the bots from its runtime stage, the stand-ins from a stage it has", () => {
    const { stages, tag, lastStage } = dockerfile();
    expect(tag).toBe('slack-agent-bridge');
    expect(lastStage).toBe('runtime');
    for (const [name, service] of services.filter(isBot)) {
      expect(service.image, name).toBe(`${tag}:latest`);
      expect(service.build?.context, name).toBe('.');
    }
    for (const [name, service] of services.filter(([, s]) => s.build)) {
      expect(stages, `${name}'s build target`).toContain(service.build?.target);
    }
  });

  it('runs the stand-ins from dev/ through tsx in the dev stage; the runtime image holds src/ compiled only', () => {
    for (const name of ['simulator', 'slack-standin']) {
      const service = compose.services[name];
      expect(service?.build?.target, name).toBe('dev');
      const command = service?.command ?? [];
      expect(command.slice(0, 3), name).toEqual(['node', '--import', 'tsx']);
      const script = command[3] ?? '';
      expect(script, name).toBe(`dev/${name}/cli.ts`);
      expect(existsSync(new URL(`../../${script}`, import.meta.url)), script).toBe(true);
    }
    // The dev stage copies the whole context: dev/ must not be ignored.
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored.filter((line) => /^\/?dev\/?$/.test(line))).toEqual([]);
    // The runtime stage copies dist/ (the build of src/ alone), never the sources or dev/.
    const runtime = read('Dockerfile').split(/^FROM \S+ AS runtime$/m)[1] ?? '';
    const copied = [...runtime.matchAll(/^COPY .* (\S+)$/gm)].map((m) => m[1]);
    expect(copied).toEqual(['./package.json', './node_modules', './dist', './scripts/healthcheck.mjs']);
    const build = ts.getParsedCommandLineOfConfigFile(
      fileURLToPath(new URL('../../tsconfig.build.json', import.meta.url)),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    const roots = (build?.fileNames ?? []).map((file) => relative(repoRoot, file));
    expect(roots.length).toBeGreaterThan(0);
    expect(roots.filter((file) => !file.startsWith('src/'))).toEqual([]);
  });

  it('sets only variables the bot reads', () => {
    for (const [name, service] of services) {
      const unknown = Object.keys(service.environment ?? {}).filter((v) => !CONFIG_VARIABLES.includes(v));
      expect(unknown, name).toEqual([]);
    }
  });

  it('gives every service a health check and a restart policy', () => {
    for (const [name, service] of services) {
      expect(service.healthcheck?.test?.[0], name).toBe('CMD');
      expect(service.healthcheck?.test?.length, name).toBeGreaterThan(1);
      expect(service.restart, name).toBe('unless-stopped');
    }
    for (const [name, service] of services.filter(isBot)) {
      expect(service.healthcheck?.test, name).toEqual(['CMD', 'node', 'scripts/healthcheck.mjs']);
    }
    // The image ships the script the check runs.
    expect(read('Dockerfile')).toMatch(/COPY --from=build \S+ \/app\/scripts\/healthcheck\.mjs/);
  });

  it.each([
    ['production', productionBots],
    ['sandbox', sandboxBots],
  ])('%s replicas share one Redis, divide the 100-request budget and have names of their own', (_, bots) => {
    const envs = bots.map(([, service]) => service.environment ?? {});
    expect(new Set(envs.map((env) => env.REDIS_URL))).toEqual(new Set(['redis://redis:6379']));
    expect(new Set(envs.map((env) => env.REDIS_PREFIX)).size).toBe(1);
    const budget = envs.reduce((sum, env) => sum + Number(env.AGENT_MAX_IN_FLIGHT), 0);
    expect(budget).toBeGreaterThan(0);
    expect(budget).toBeLessThanOrEqual(100);
    expect(new Set(envs.map((env) => env.INSTANCE_ID)).size).toBe(bots.length);
    for (const [name, service] of bots) {
      expect(service.depends_on?.redis?.condition, name).toBe('service_healthy');
    }
  });

  it('production replicas take their secrets from .env and nowhere else', () => {
    for (const [name, service] of productionBots) {
      expect(
        service.env_file?.map((file) => file.path),
        name,
      ).toEqual(['.env']);
      const secrets = Object.keys(service.environment ?? {}).filter((v) => /TOKEN|SECRET/.test(v));
      expect(secrets, name).toEqual([]);
    }
  });

  it('sandbox replicas talk to the simulator and the Slack stand-in the profile runs, with fake tokens', () => {
    const standin = compose.services['slack-standin'];
    const simulator = compose.services.simulator;
    const [standinPort] = commandOption(standin, 'port');
    const [simulatorPort] = commandOption(simulator, 'port');
    expect(commandOption(standin, 'events-url').sort()).toEqual(
      sandboxBots.map(([name]) => `http://${name}:3000`).sort(),
    );
    for (const [name, service] of sandboxBots) {
      const env = service.environment ?? {};
      expect(service.env_file, name).toBeUndefined();
      expect(env.SLACK_API_URL, name).toBe(`http://slack-standin:${standinPort}/api/`);
      expect(env.AGENT_API_URL, name).toBe(`http://simulator:${simulatorPort}`);
      expect(env.AGENT_API_TOKEN, name).toBe(SIM_TOKENS.agent);
      expect(env.AGENT_ID, name).toBe(SIM_AGENTS.api);
      expect(env.SLACK_BOT_TOKEN, name).toMatch(/^xoxb-sandbox-not-a-real/);
      expect(commandOption(standin, 'signing-secret')).toEqual([env.SLACK_SIGNING_SECRET]);
      // The bot starts with this environment: plain http:// to the stand-ins is allowed by name.
      expect(() => loadConfig(env), name).not.toThrow();
      expect(Object.keys(service.depends_on ?? {}).sort(), name).toEqual([
        'redis',
        'simulator',
        'slack-standin',
      ]);
    }
    expect(commandOption(standin, 'public-url')).toEqual([`http://slack-standin:${standinPort}`]);
    for (const service of [standin, simulator]) {
      expect(commandOption(service, 'host')).toEqual(['0.0.0.0']);
      expect(service?.healthcheck?.test.join(' ')).toContain(
        `127.0.0.1:${service === standin ? standinPort : simulatorPort}`,
      );
    }
  });
});
