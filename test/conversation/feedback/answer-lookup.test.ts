import { describe, expect, it } from 'vitest';
import { createAnswerLookup } from '../../../src/conversation/feedback/answer-lookup.js';
import type { ConversationStore } from '../../../src/conversation/ports.js';
import type { AnswerRef, TurnRecord } from '../../../src/conversation/turn/turn-records.js';
import { createMemoryStore } from '../../../src/store/index.js';
import { createManualClock } from '../../support/manual-clock.js';

const turn = (overrides: Partial<TurnRecord> = {}): TurnRecord => ({
  turnId: 'turn-1',
  threadKey: 'T1:C1:100.1',
  teamId: 'T1',
  channel: 'C1',
  threadTs: '100.1',
  agentId: 'agent-a',
  userId: 'UALICE',
  sourceTs: '100.1',
  kind: 'start',
  phase: 'polling',
  sessionId: 'session-1',
  startedAt: 0,
  deadlineAt: 60_000,
  ...overrides,
});

const refOf = (record: TurnRecord): AnswerRef => ({
  threadKey: record.threadKey,
  agentId: record.agentId,
  sessionId: record.sessionId ?? '',
  turnId: record.turnId,
});

describe('answer lookup before the answer is indexed', () => {
  it('a click finds its run by the turn id it carries while delivery has not indexed the part', async () => {
    const store = createMemoryStore();
    await store.saveTurn(turn());
    const lookup = createAnswerLookup({ store });
    expect(await lookup.byClick('C1', '200.1', 'turn-1')).toEqual(refOf(turn()));
  });

  it('a click on an answer from another service connection names that connection', async () => {
    const store = createMemoryStore();
    await store.saveTurn(turn({ connection: 'eu-prod' }));
    const lookup = createAnswerLookup({ store });
    expect(await lookup.byClick('C1', '200.1', 'turn-1')).toEqual({
      ...refOf(turn()),
      connection: 'eu-prod',
    });
  });

  it('never takes a turn of another channel, a turn without a run, or a click without a turn id', async () => {
    const store = createMemoryStore();
    await store.saveTurn(turn());
    await store.saveTurn(turn({ turnId: 'turn-2', sessionId: undefined, phase: 'starting' }));
    const lookup = createAnswerLookup({ store });
    expect(await lookup.byClick('C2', '200.1', 'turn-1')).toBeUndefined();
    expect(await lookup.byClick('C1', '200.1', 'turn-2')).toBeUndefined();
    expect(await lookup.byClick('C1', '200.1', undefined)).toBeUndefined();
    expect(await lookup.byClick('C1', '200.1', 'no-such-turn')).toBeUndefined();
  });

  it('prefers the index: the message names its own run even when the click names another turn', async () => {
    const store = createMemoryStore();
    await store.saveTurn(turn({ turnId: 'turn-2', sessionId: 'session-2' }));
    await store.indexAnswer('C1', '200.1', refOf(turn()));
    const lookup = createAnswerLookup({ store });
    expect((await lookup.byClick('C1', '200.1', 'turn-2'))?.sessionId).toBe('session-1');
  });

  it('reads the index again when the turn was delivered (indexed, then deleted) between its reads', async () => {
    const memory = createMemoryStore();
    // The delivery finishes exactly between the click's index read and its turn read.
    let reads = 0;
    const store: ConversationStore = Object.assign(Object.create(memory) as ConversationStore, {
      lookupAnswer: async (channel: string, ts: string) => {
        reads += 1;
        const found = await memory.lookupAnswer(channel, ts);
        if (reads === 1) await memory.indexAnswer('C1', '200.1', refOf(turn()));
        return found;
      },
      getTurn: async () => undefined,
    });
    const lookup = createAnswerLookup({ store });
    expect(await lookup.byClick('C1', '200.1', 'turn-1')).toEqual(refOf(turn()));
    expect(reads).toBe(2);
  });

  it('a reaction on a bot message waits, bounded, for the index; one on anyone else’s does not', async () => {
    const store = createMemoryStore();
    const clock = createManualClock();
    const lookup = createAnswerLookup({ store, clock, reactionWaitMs: 1_000 });

    const early = lookup.byReaction('C1', '200.1', true);
    await clock.advanceAsync(250);
    await store.indexAnswer('C1', '200.1', refOf(turn()));
    await clock.advanceAsync(250);
    expect(await early).toEqual(refOf(turn()));

    const unknown = lookup.byReaction('C1', '300.1', true);
    await clock.advanceAsync(1_000);
    expect(await unknown).toBeUndefined();
    expect(clock.pendingSleepers()).toBe(0);

    expect(await lookup.byReaction('C1', '400.1', false)).toBeUndefined();
    expect(clock.pendingSleepers()).toBe(0);
  });
});
