import { afterEach, describe, expect, it } from 'vitest';
import { simDirective } from '../../dev/simulator/index.js';
import { type Harness, startHarness } from '../support/bridge-harness.js';

describe('a mention becomes an answer in the thread', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('answers once, in the thread of the mention', async () => {
    harness = await startHarness();
    const { channel, threadTs, responses } = await harness.mention(
      `why are errors up? ${simDirective({ steps: 2, stepMs: 50, answer: 'Because of *disk* pressure.' })}`,
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    const outcomes = await harness.waitForOutcome(channel, threadTs);
    expect(outcomes).toHaveLength(1);
    expect(harness.visibleText(outcomes[0] as never)).toContain('Because of *disk* pressure.');
    expect(harness.sim.runs()).toHaveLength(1);
  });
});
