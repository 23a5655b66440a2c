import { describe, expect, it } from 'vitest';
import { runSandbox } from '../support/run-sandbox.js';

/**
 * `npm run sandbox`, piped: `/agent connections add` goes through the bot's form in the terminal
 * (the sandbox's second simulator is the demo account), and a channel uses that connection.
 */
describe('npm run sandbox: a second account through the connection form', () => {
  it('adds the demo connection, lists it, binds #sandbox to it and answers there', async () => {
    const run = await runSandbox(
      [
        '/agent connections add',
        '/agent connections',
        '/agent channel use sim-agent-api on demo',
        'why? [sim steps=1 stepms=50 answer="from the demo account"]',
        '/agent connections remove demo',
        '',
      ].join('\n'),
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('the bot opened the form “Add a connection”');
    expect(run.stdout).toMatch(
      /Added \*demo\*: account \*Demo Team\* \(id 300001\), region 127\.0\.0\.1:\d+/,
    );
    expect(run.stdout).toMatch(/`demo` — region 127\.0\.0\.1:\d+ — account \*Demo Team\*.*healthy/);
    // The demo connection is another account than the default one.
    expect(run.stdout).toMatch(/`default` \(AGENT_API_URL\) — .*account \*Production\*/);
    expect(run.stdout).toContain('on connection `demo`');
    expect(run.stdout).toContain('from the demo account');
    expect(run.stdout).toContain('`demo` is still used by');
    expect(run.stdout).not.toContain('sim-demo-account-token');
  });
});
