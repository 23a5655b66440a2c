import { describe, expect, it } from 'vitest';
import {
  botExchangesPerRun,
  callArgs,
  countsBetween,
  cpuRatio,
  floorExchangesPerRun,
  floorRates,
  shareOf,
} from '../bench/floor-plan.js';

describe('the bench floor: what the bare stack repeats of the bot', () => {
  it('takes the measured window as the difference of two counts, dropping what did not grow', () => {
    const before = { slack: { 'auth.test': 1, 'chat.postMessage': 50 }, service: { start: 50, status: 350 } };
    const after = {
      slack: { 'auth.test': 1, 'chat.postMessage': 1_050, 'conversations.info': 100 },
      service: { start: 1_050, status: 7_350 },
    };
    expect(countsBetween(before, after)).toEqual({
      slack: { 'chat.postMessage': 1_000, 'conversations.info': 100 },
      service: { start: 1_000, status: 7_000 },
    });
  });

  it('turns the window into rates per run, failed calls under their method, auth.test left out', () => {
    const rates = floorRates(
      {
        slack: {
          'auth.test': 1,
          'chat.postMessage': 990,
          'chat.postMessage ratelimited': 10,
          'assistant.threads.setStatus': 1_150,
        },
        service: { start: 1_000, status: 6_500, 'GET other': 3 },
      },
      1_000,
    );
    expect(rates).toEqual({
      starts: 1,
      polls: 6.5,
      slack: { 'chat.postMessage': 1, 'assistant.threads.setStatus': 1.15 },
    });
    expect(() => floorRates({ slack: {}, service: {} }, 0)).toThrow(RangeError);
  });

  it('spreads a fractional rate over the runs so N runs make floor(rate × N) calls', () => {
    const total = (rate: number, runs: number) =>
      Array.from({ length: runs }, (_, i) => shareOf(rate, i)).reduce((sum, n) => sum + n, 0);
    expect(total(6.5, 1_000)).toBe(6_500);
    expect(total(0.1, 1_000)).toBe(100);
    expect(total(1.15, 20)).toBe(23);
    expect([0, 1, 2, 3].map((i) => shareOf(0.5, i))).toEqual([0, 1, 0, 1]);
    expect([0, 1, 2].map((i) => shareOf(7, i))).toEqual([7, 7, 7]);
  });

  it('counts exchanges per run the same way for the bot and the floor', () => {
    const window = {
      slack: { 'chat.postMessage': 100, 'agents.sessions.setStatus': 200 },
      service: { start: 100, status: 700, 'GET other': 10 },
    };
    // 1 mention + 1 start + 7 polls + 0.1 other + 3 Slack calls.
    expect(botExchangesPerRun(window, 100)).toBeCloseTo(12.1, 10);
    expect(floorExchangesPerRun({ mentions: 100, service: 800, slack: 300, failed: 2 }, 100)).toBe(12);
  });

  it('gives the CPU ratio of bot to floor, undefined without a floor', () => {
    expect(cpuRatio(12, 10)).toBeCloseTo(1.2, 10);
    expect(cpuRatio(12, 0)).toBeNaN();
  });

  it("replays the bot's call in the run's own thread, with JSON fields as objects again", () => {
    const sample = {
      token: 'xoxb-not-sent-twice',
      channel: 'CBENCH007',
      thread_ts: '1700000000.000007',
      text: 'the answer',
      blocks: '[{"type":"section","text":{"type":"mrkdwn","text":"the answer"}}]',
      metadata: '{"event_type":"agent_answer","event_payload":{}}',
      unfurl_links: 'false',
      title: '{not json',
    };
    expect(callArgs(sample, { channel: 'CBENCH042', threadTs: '1800000000.000042' })).toEqual({
      channel: 'CBENCH042',
      thread_ts: '1800000000.000042',
      text: 'the answer',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'the answer' } }],
      metadata: { event_type: 'agent_answer', event_payload: {} },
      unfurl_links: 'false',
      title: '{not json',
    });
    expect(
      callArgs({ channel_id: 'C1', status: 'is thinking…' }, { channel: 'C2', threadTs: '1.2' }),
    ).toEqual({
      channel_id: 'C2',
      status: 'is thinking…',
    });
  });
});
