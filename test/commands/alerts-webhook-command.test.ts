import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/commands/registry.js';

describe('/agent alerts webhook', () => {
  it('parses show and rotate, and refuses anything else with its usage', () => {
    expect(parseCommand('alerts webhook')).toEqual({
      ok: true,
      command: { kind: 'alerts-webhook', rotate: false },
    });
    expect(parseCommand('alerts webhook rotate')).toEqual({
      ok: true,
      command: { kind: 'alerts-webhook', rotate: true },
    });
    expect(parseCommand('alerts webhook now')).toMatchObject({ ok: false, subcommand: 'alerts-webhook' });
    expect(parseCommand('alerts')).toMatchObject({ ok: false, subcommand: 'alerts-webhook' });
  });
});
