import { createClient } from '@keyv/redis';
import { TEST_REDIS_URL } from '../support/redis.js';

/** A plain client for looking at keys and cleaning up behind a test. */
export async function openInspector() {
  const client = createClient({ url: TEST_REDIS_URL });
  client.on('error', () => {});
  await client.connect();
  return {
    client,
    /** Every key under `prefix::`, sorted. */
    async keys(prefix: string): Promise<string[]> {
      return (await client.keys(`${prefix}::*`)).sort();
    },
    async deleteAll(prefix: string): Promise<void> {
      const keys = await client.keys(`${prefix}::*`);
      if (keys.length > 0) await client.del(keys);
    },
    close: () => client.close(),
  };
}
