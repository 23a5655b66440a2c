import { describe, expect, it } from 'vitest';
import type { Placement, PrivateThread } from '../../../src/conversation/access/answer-place.js';
import { createAudienceAtPost } from '../../../src/conversation/turn/audience-at-post.js';
import { silentLogger } from '../../../src/runtime/logger.js';
import { POLLED_TURN } from '../../support/turn-record.js';

/** DESIGN "Audience at every post": where service data goes when the audience changed mid-run. */
function setup(placement: Placement, moved: PrivateThread = { moved: false }) {
  const asked: string[] = [];
  const movedFor: string[] = [];
  const audience = createAudienceAtPost({
    placement: {
      decide: async (channel) => {
        asked.push(channel);
        return placement;
      },
      moveToPrivate: async (origin, asker) => {
        movedFor.push(`${origin.channel}/${origin.threadTs}/${origin.sourceTs}:${asker}`);
        return moved;
      },
    },
    logger: silentLogger,
  });
  return { audience, asked, movedFor };
}

const PRIVATE_WHERE = { teamId: 'T1', channel: 'D0ALICE', threadTs: '200.000001' };

describe('audience at post', () => {
  it('posts here when nobody outside reads the conversation (or the policy is thread)', async () => {
    const { audience, movedFor } = setup({ kind: 'here' });
    expect(await audience.placeFor(POLLED_TURN)).toEqual({ kind: 'here' });
    expect(movedFor).toEqual([]);
  });

  it('never asks about a DM with the bot (a private thread included)', async () => {
    const { audience, asked } = setup({ kind: 'private', reason: 'shared' });
    expect(await audience.placeFor({ ...POLLED_TURN, channel: 'D0ALICE' })).toEqual({ kind: 'here' });
    expect(asked).toEqual([]);
  });

  it.each(['private', 'refused'] as const)(
    "moves a person's answer to their DM once the conversation became outsider-readable (%s policy)",
    async (kind) => {
      const { audience, movedFor } = setup({ kind, reason: 'shared' }, { moved: true, where: PRIVATE_WHERE });
      expect(await audience.placeFor(POLLED_TURN)).toEqual({
        kind: 'private',
        where: PRIVATE_WHERE,
        reason: 'shared',
      });
      expect(movedFor).toEqual(['C1/100.000001/100.000001:U1']);
    },
  );

  it('withholds an alert investigation answer (no asker) and never opens a DM for it', async () => {
    const { audience, movedFor } = setup({ kind: 'private', reason: 'guest' });
    expect(await audience.placeFor({ ...POLLED_TURN, alertAt: 1 })).toEqual({
      kind: 'withheld',
      reason: 'guest',
    });
    expect(movedFor).toEqual([]);
  });

  it('withholds the answer when Slack will not open the DM', async () => {
    const { audience } = setup({ kind: 'private', reason: 'unknown' }, { moved: false });
    expect(await audience.placeFor(POLLED_TURN)).toEqual({ kind: 'withheld', reason: 'unknown' });
  });
});
