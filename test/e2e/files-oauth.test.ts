import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { appMentionEvent, messageEvent } from '../../dev/slack-standin/index.js';
import {
  installThroughPages,
  type OAuthHarness,
  PEOPLE,
  startOAuthHarness,
  WORKSPACES,
} from '../support/oauth-harness.js';

/**
 * DESIGN "Files are context" with OAuth distribution: a shared file is downloaded with the token of
 * the installation the question came from (no SLACK_BOT_TOKEN exists to fall back on).
 */
describe('files as context with many workspaces', () => {
  let h: OAuthHarness;
  beforeAll(async () => {
    h = await startOAuthHarness();
    await installThroughPages(h, 'Alpha');
  });
  afterAll(async () => h?.stop());

  it("downloads with the asking installation's token", async () => {
    const w = WORKSPACES.a;
    const person = PEOPLE.a;
    const channel = w.channels?.[0] ?? '';
    const file = h.slack.shareFile({ user: person.id, name: 'alpha.log', content: 'ALPHA-LOG-LINE' });
    const text = `<@${w.botUserId}> what is this? ${simDirective({ steps: 1, stepMs: 20, answer: 'A log.' })}`;
    const stored = h.slack.recordUserMessage({
      channel,
      user: person.id,
      text,
      team: person.team_id,
      files: [file],
    });
    const base = { channel, user: person.id, text, ts: stored.ts, team: person.team_id };
    const responses = await Promise.all([
      h.send('a', { ...appMentionEvent({ ...base, botUserId: w.botUserId }), files: [file] }),
      h.send('a', messageEvent({ ...base, files: [file] })),
    ]);
    for (const response of responses) expect(response.status).toBe(200);
    await h.waitForOutcome(channel, stored.ts);
    expect(h.sim.runs()[0]?.contexts[0]?.additionalContext).toContain('ALPHA-LOG-LINE');
    expect(h.slack.fileDownloads()).toEqual([{ fileId: file.id, authorized: true, status: 200 }]);
  });
});
