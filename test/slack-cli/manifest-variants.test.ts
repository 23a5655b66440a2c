import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/** `npm run manifest`: manifest.yml's variants, printed so nobody edits a copy by hand. */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function manifestCli(...args: string[]) {
  const run = spawnSync(process.execPath, ['scripts/manifest.mjs', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run manifest', () => {
  it('--socket-mode prints the very manifest the get-manifest hook gives the Slack CLI', () => {
    const printed = manifestCli('--socket-mode', '--json');
    const hook = spawnSync(process.execPath, ['scripts/slack-cli/get-manifest.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(hook.stdout));
    // The YAML form (for pasting) says the same.
    expect(parse(manifestCli('--socket-mode').stdout)).toEqual(JSON.parse(printed.stdout));
  });

  it('--url puts the public address in every request URL and changes nothing else', () => {
    const run = manifestCli('--url', 'https://bot.example.com/');
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.stringify(parse(run.stdout));
    const source = JSON.stringify(parse(readFileSync(`${ROOT}manifest.yml`, 'utf8')));
    expect(source).toContain('https://YOUR-HOST/slack/events');
    expect(printed).not.toContain('YOUR-HOST');
    expect(printed).toBe(source.replaceAll('https://YOUR-HOST', 'https://bot.example.com'));
  });

  it('with no flag prints manifest.yml as it is, and explains YOUR-HOST on stderr', () => {
    const run = manifestCli();
    expect(run.code, run.stderr).toBe(0);
    expect(parse(run.stdout)).toEqual(parse(readFileSync(`${ROOT}manifest.yml`, 'utf8')));
    expect(run.stderr).toContain('YOUR-HOST in this manifest is a placeholder');
    expect(run.stderr).toContain('--url https://');
    expect(run.stderr).toContain('--socket-mode');
    // With a flag the placeholder is gone, and so is the hint.
    expect(manifestCli('--socket-mode').stderr).toBe('');
  });

  it('refuses an address Slack would not call', () => {
    const run = manifestCli('--url', 'http://bot.example.com');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/https:\/\//);
  });
});
