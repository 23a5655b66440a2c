import { describe, expect, it } from 'vitest';
import { createReadyLanes } from '../../../src/conversation/polling/time-queues.js';

const isLate = (id: string) => id.startsWith('late');

describe('ready lanes', () => {
  it('hands out nothing while every slot is taken, and on-time items before late ones', () => {
    const lanes = createReadyLanes(2, 1, isLate);
    for (const id of ['late1', 'a', 'b', 'c']) lanes.push(id);
    const first = lanes.next();
    const second = lanes.next();
    expect([first, second]).toEqual(['a', 'b']);
    lanes.started('a');
    lanes.started('b');
    expect(lanes.inFlight()).toBe(2);
    expect(lanes.next()).toBeUndefined();
    lanes.finished('a');
    expect(lanes.next()).toBe('c');
    expect(lanes.next()).toBe('late1');
  });

  it('keeps late items to their own slots even when others are free', () => {
    const lanes = createReadyLanes(4, 1, isLate);
    for (const id of ['late1', 'late2']) lanes.push(id);
    expect(lanes.next()).toBe('late1');
    lanes.started('late1');
    expect(lanes.next()).toBeUndefined();
    lanes.finished('late1');
    expect(lanes.inFlight()).toBe(0);
    expect(lanes.next()).toBe('late2');
  });
});
