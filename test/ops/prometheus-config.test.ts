import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Harness, startHarness } from '../support/bridge-harness.js';

/**
 * ops/prometheus.yml against compose.yaml and the running bot: it scrapes every production replica
 * on the port the bot listens on inside its container, and sends METRICS_TOKEN from a file the way
 * Prometheus does (`authorization.credentials_file`, trimmed), which the bot then accepts.
 */

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

interface ScrapeConfig {
  job_name: string;
  metrics_path?: string;
  authorization?: { type?: string; credentials?: string; credentials_file?: string };
  bearer_token?: string;
  static_configs: Array<{ targets: string[] }>;
}

const prometheus = parse(read('ops/prometheus.yml')) as { scrape_configs: ScrapeConfig[] };
const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, { build?: { target?: string }; profiles?: string[]; ports?: string[] }>;
};
const [job] = prometheus.scrape_configs;

describe('ops/prometheus.yml', () => {
  it('scrapes every production replica of compose.yaml on its container port', () => {
    const replicas = Object.entries(compose.services).filter(
      ([, service]) => service.build?.target === 'runtime' && !service.profiles,
    );
    const expected = replicas.map(([name, service]) => {
      const containerPort = service.ports?.[0]?.split(':').at(-1);
      return `${name}:${containerPort}`;
    });
    expect(expected).toEqual(['bot-1:3000', 'bot-2:3000']);
    expect(job?.static_configs.flatMap((config) => config.targets)).toEqual(expected);
    expect(job?.metrics_path ?? '/metrics').toBe('/metrics');
  });

  it('sends the token as a bearer credential read from a file, never written into the config', () => {
    expect(job?.authorization?.type ?? 'Bearer').toBe('Bearer');
    expect(job?.authorization?.credentials_file).toMatch(/^\//);
    expect(job?.authorization?.credentials).toBeUndefined();
    expect(job?.bearer_token).toBeUndefined();
  });

  describe('against the running bot with METRICS_TOKEN', () => {
    const token = 'test-prometheus-token-not-secret';
    let harness: Harness;
    let dir: string;

    beforeAll(async () => {
      harness = await startHarness({ env: { METRICS_TOKEN: token } });
      dir = mkdtempSync(join(tmpdir(), 'sab-prometheus-'));
    });
    afterAll(async () => {
      await harness?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** One scrape as Prometheus makes it from this job's settings, the credentials file at `file`. */
    async function scrapeLikePrometheus(file: string | undefined) {
      const headers: Record<string, string> = {};
      if (file)
        headers.authorization = `${job?.authorization?.type ?? 'Bearer'} ${readFileSync(file, 'utf8').trim()}`;
      return fetch(`${harness.appUrl}${job?.metrics_path ?? '/metrics'}`, { headers });
    }

    it('is answered with metrics when the file holds the token (with the newline an editor adds)', async () => {
      const file = join(dir, 'metrics_token');
      writeFileSync(file, `${token}\n`);
      const response = await scrapeLikePrometheus(file);
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/^sab_turns_in_flight 0$/m);
    });

    it('is refused without the authorization block', async () => {
      const response = await scrapeLikePrometheus(undefined);
      expect(response.status).toBe(401);
    });
  });
});
