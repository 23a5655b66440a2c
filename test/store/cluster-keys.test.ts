import { describe, expect, it } from 'vitest';
import { lockNames } from '../../src/conversation/turn/turn-ledger.js';
import { clusterKeys, storeKeys } from '../../src/store/keys.js';

/** The part of a key that picks its cluster slot: the first `{…}` with something inside, else all of it. */
function hashTag(key: string): string {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

describe('cluster key names', () => {
  const threadKey = 'T0TEST:C0GENERAL:1700000000.000100';
  const turnId = '11cf0989-fc01-4ad3-bf5b-c4d4d40ab5ee';

  it("put a thread's record and busy lock in one slot", () => {
    const keys = [clusterKeys.thread(threadKey), clusterKeys.lock(lockNames.thread(threadKey))];
    expect(new Set(keys.map(hashTag))).toEqual(new Set([threadKey]));
  });

  it("put a turn's record, lease, delivery claim and delivered mark in one slot", () => {
    const keys = [
      clusterKeys.turn(turnId),
      clusterKeys.lock(lockNames.lease(turnId)),
      clusterKeys.lock(lockNames.delivery(turnId)),
      clusterKeys.lock(lockNames.delivered(turnId)),
    ];
    expect(new Set(keys.map(hashTag))).toEqual(new Set([turnId]));
  });

  it('give different threads different tags (so they spread), and tag every key kind', () => {
    expect(hashTag(clusterKeys.thread('T:C:1'))).not.toBe(hashTag(clusterKeys.thread('T:C:2')));
    for (const key of [
      clusterKeys.answer('C1', '1.2'),
      clusterKeys.channelAgent('C1'),
      clusterKeys.audience('C1'),
      clusterKeys.rating('s-1'),
      clusterKeys.lock('capacity-move'),
      clusterKeys.allowance('person:U1'),
      clusterKeys.accountSlots('acct'),
    ]) {
      expect(key).toMatch(/\{[^}]+\}/);
    }
  });

  it('leave the single-server names as they were, so an upgrade finds its records', () => {
    expect(storeKeys.thread(threadKey)).toBe(`thread:${threadKey}`);
    expect(storeKeys.lock(lockNames.lease(turnId))).toBe(`lock:lease:${turnId}`);
  });
});
