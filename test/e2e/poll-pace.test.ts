import { describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { startHarness } from '../support/bridge-harness.js';

/**
 * AGENT_POLL_INTERVAL_MS end to end: the simulator's long poll answers at every step, so a run of
 * eight steps 100 ms apart is polled about every 250 ms at the default pace, and about once a
 * second at a pace of 1 s — with the same answer, posted once.
 */
const STEPS = 8;
const STEP_MS = 100;

async function statusPollsForOneRun(env: Record<string, string> = {}) {
  const harness = await startHarness({ env });
  try {
    const { channel, threadTs } = await harness.mention(
      `what changed? ${simDirective({ steps: STEPS, stepMs: STEP_MS, answer: 'Nothing much.' })}`,
    );
    const outcomes = await harness.waitForOutcome(channel, threadTs);
    expect(outcomes).toHaveLength(1);
    expect(harness.visibleText(outcomes[0] as never)).toContain('Nothing much.');
    const polls = harness.sim.requests.filter(
      (r) => r.method === 'GET' && /^\/v2\/ai-agent\/[^/]+\/[^/]+$/.test(r.path),
    );
    return polls.map((r) => r.at);
  } finally {
    await harness.stop();
  }
}

describe('the status poll pace (AGENT_POLL_INTERVAL_MS)', () => {
  it('polls a run of quick steps every 250 ms by default, and at most once a second at 1000', async () => {
    const eager = await statusPollsForOneRun();
    const paced = await statusPollsForOneRun({ AGENT_POLL_INTERVAL_MS: '1000' });
    // Default (250 ms): the 0.8 s run is looked at four times or more.
    expect(eager.length).toBeGreaterThanOrEqual(4);
    // Paced: every poll starts at least a second after the one before it (timer slack allowed).
    const gaps = paced.slice(1).map((at, i) => at - (paced[i] ?? 0));
    expect(gaps.every((gap) => gap >= 990)).toBe(true);
    expect(paced.length).toBeLessThan(eager.length);
  });
});
