import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/commands/registry.js';

/** `/agent connections …` (DESIGN "Many accounts"). */
describe('parsing the connections commands', () => {
  it.each([
    ['connections', { kind: 'connections' }],
    ['connection', { kind: 'connections' }],
    ['connections add', { kind: 'connections-add' }],
    ['connections remove eu-prod', { kind: 'connections-remove', alias: 'eu-prod' }],
  ])('%s', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each([
    ['connections add eu https://api-eu.example.com sekret-token', 'connections-add', /never type a token/],
    ['connections remove', 'connections-remove', /something is missing/],
    ['connections remove "eu prod"', 'connections-remove', /one word without spaces/],
    [`connections remove ${'x'.repeat(200)}`, 'connections-remove', /200 characters long; at most 32/],
    ['connections remove Eu_Prod', 'connections-remove', /is not an alias/],
    ['connections frobnicate', 'connections', /unknown connections command/],
  ])('%s is refused', (text, subcommand, problem) => {
    const parsed = parseCommand(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.subcommand).toBe(subcommand);
    expect(parsed.problem).toMatch(problem);
    expect(parsed.problem).not.toContain('sekret-token');
  });
});
