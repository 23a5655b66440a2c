import { describe, expect, it } from 'vitest';
import { normaliseReaction, reactionToScore } from '../../../src/conversation/feedback/feedback-mapping.js';

const sets = { positive: ['+1', 'white_check_mark', ':heart:'], negative: ['thumbsdown', 'x'] };

describe('reactionToScore', () => {
  it.each<[string, boolean | undefined]>([
    ['+1', true],
    ['+1::skin-tone-2', true],
    ['+1::skin-tone-6', true],
    ['white_check_mark', true],
    ['heart', true],
    ['-1', false],
    ['-1::skin-tone-4', false],
    ['x', false],
    ['eyes', undefined],
    ['', undefined],
    ['+10', undefined],
  ])('%s → %s', (reaction, expected) => {
    expect(reactionToScore(reaction, sets)).toBe(expected);
  });

  it('does not guess for an emoji configured as both', () => {
    expect(reactionToScore('x', { positive: ['x'], negative: ['x'] })).toBeUndefined();
  });

  it.each([
    [':+1::skin-tone-3:', '+1'],
    ['ThumbsUp', '+1'],
    ['thumbs_down', '-1'],
    ['tada', 'tada'],
  ])('normalises %s to %s', (name, expected) => {
    expect(normaliseReaction(name)).toBe(expected);
  });
});
