import { describe, expect, it } from 'vitest';
import { parseThreadKey, threadKey } from '../../src/conversation/thread-key.js';

describe('threadKey', () => {
  it.each([
    ['T1', 'C1', '1700000000.000100', 'T1:C1:1700000000.000100'],
    ['T1', 'D1', '1.2', 'T1:D1:1.2'],
  ])('%s %s %s → %s', (team, channel, ts, expected) => {
    expect(threadKey(team, channel, ts)).toBe(expected);
    expect(parseThreadKey(expected)).toEqual({ teamId: team, channel, threadTs: ts });
  });

  it.each(['', 'T1:C1', 'T1::1.2', 'T1:C1:1.2:x', ':C1:1.2'])('does not parse %j', (key) => {
    expect(parseThreadKey(key)).toBeUndefined();
  });
});
