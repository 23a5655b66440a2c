import { describe, expect, it } from 'vitest';
import { createWatchedChannels } from '../../src/alerts/watched-channels.js';
import type { Tenant } from '../../src/conversation/tenancy.js';
import { createMemoryStore } from '../../src/store/memory-store.js';

const tenant = (teamId: string): Tenant => ({ teamId, home: false, key: teamId });
const AT = Date.parse('2026-11-28T10:00:00Z');

describe('watched channels across installations', () => {
  it('moves an installation’s watch kept under the channel alone to its own name', async () => {
    const store = createMemoryStore();
    await store.saveChannelWatch('C1', { by: 'U1', at: AT, installation: 'T1' });
    const watched = createWatchedChannels({ store, now: () => AT + 1 });

    expect(await watched.set(tenant('T1'), 'C1', true, 'U2')).toEqual({ wasOn: true });
    expect(await store.getChannelWatch('T1:C1')).toEqual({ by: 'U1', at: AT, installation: 'T1' });
    expect(await store.getChannelWatch('C1')).toBeUndefined();
  });

  it('leaves the watch another installation kept under a shared channel’s id', async () => {
    const store = createMemoryStore();
    // A shared channel has one id in both workspaces: T2 watched it before installations had names.
    await store.saveChannelWatch('C1', { by: 'U9', at: AT, installation: 'T2' });
    await store.saveChannelWatch('T1:C1', { by: 'U1', at: AT, installation: 'T1' });
    const watched = createWatchedChannels({ store, now: () => AT + 1 });

    expect(await watched.set(tenant('T1'), 'C1', false, 'U1')).toEqual({ wasOn: true });
    expect(await store.getChannelWatch('T1:C1')).toBeUndefined();
    expect(await watched.watchOf(tenant('T2'), 'C1')).toEqual({ by: 'U9', at: AT, installation: 'T2' });
  });
});
