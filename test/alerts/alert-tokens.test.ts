import { describe, expect, it } from 'vitest';
import { createAlertTokens } from '../../src/alerts/alert-tokens.js';
import { createSecretBox } from '../../src/secrets/secret-box.js';
import { createMemoryStore } from '../../src/store/index.js';

/** DESIGN "Alert tokens per installation": one sealed token per installation, made on first use. */
describe('alert tokens', () => {
  function setup() {
    const store = createMemoryStore();
    const box = createSecretBox(Buffer.alloc(32, 3));
    return { store, tokens: createAlertTokens({ records: store, box, now: () => 1 }) };
  }

  it('makes a token on first use, keeps it sealed, and knows whose it is', async () => {
    const { store, tokens } = setup();
    const alpha = await tokens.tokenOf('T0ALPHA');
    expect(alpha).toMatch(/^T0ALPHA\.[A-Za-z0-9_-]{20,}$/);
    expect(await tokens.tokenOf('T0ALPHA')).toBe(alpha);
    expect(JSON.stringify(await store.getAlertTokenRecord('T0ALPHA'))).not.toContain(alpha.split('.')[1]);
    const beta = await tokens.tokenOf('T0BETA');
    expect(await tokens.installationOf([alpha])).toBe('T0ALPHA');
    expect(await tokens.installationOf(['nonsense', beta])).toBe('T0BETA');
    // Another installation's name on a made-up secret is nobody's.
    expect(await tokens.installationOf([`T0ALPHA.${beta.split('.')[1]}`])).toBeUndefined();
    expect(await tokens.installationOf([])).toBeUndefined();
  });

  it('rotate replaces the token: the old one stops working at once', async () => {
    const { tokens } = setup();
    const before = await tokens.tokenOf('T0ALPHA');
    const after = await tokens.rotate('T0ALPHA');
    expect(after).not.toBe(before);
    expect(await tokens.installationOf([before])).toBeUndefined();
    expect(await tokens.installationOf([after])).toBe('T0ALPHA');
  });
});
