import { describe, expect, it } from 'vitest';
import { type Directive, parseDirective, simDirective } from '../../dev/simulator/index.js';

describe('parseDirective', () => {
  it.each([
    ['no tag', 'just a question', undefined],
    ['a bare tag', 'hi [sim]', {}],
    [
      'every numeric key',
      'go [sim steps=5 stepms=100 outcome=error size=60000] now',
      { steps: 5, stepMs: 100, outcome: 'error', size: 60000 },
    ],
    ['keys in any case', '[SIM Steps=2 STEPMS=0]', { steps: 2, stepMs: 0 }],
    ['a quoted answer with escapes', '[sim answer="say \\"hi\\" \\\\ bye"]', { answer: 'say "hi" \\ bye' }],
    ['a bare answer', '[sim answer=ok]', { answer: 'ok' }],
    ['mentions', '[sim mention=channel,user,link]', { mention: ['channel', 'user', 'link'] }],
    ['the first of two tags', '[sim steps=1] [sim steps=2]', { steps: 1 }],
  ])('parses %s', (_name, message, expected) => {
    const parsed = parseDirective(message);
    if (expected === undefined) expect(parsed).toBeUndefined();
    else expect(parsed).toMatchObject({ ok: true, directive: expected });
  });

  it('does not take a longer word for the tag', () => {
    expect(parseDirective('[simple] text')).toBeUndefined();
  });

  it.each([
    ['an unknown key', '[sim stepz=3]', 'unknown key "stepz"'],
    ['a non-integer', '[sim steps=1.5]', 'steps must be an integer'],
    ['a negative', '[sim stepms=-1]', 'stepms must be an integer'],
    ['a zero size', '[sim size=0]', 'size must be an integer'],
    ['an unknown outcome', '[sim outcome=maybe]', 'outcome must be done, error or canceled'],
    ['an unknown mention', '[sim mention=all]', 'unknown mention "all"'],
    ['an unclosed tag', '[sim steps=1', 'cannot parse'],
  ])('reports %s', (_name, message, error) => {
    const parsed = parseDirective(message);
    expect(parsed?.ok).toBe(false);
    expect(parsed && !parsed.ok && parsed.error).toContain(error);
  });

  it('gives the span of the tag so it can be cut from the prompt', () => {
    const message = 'before [sim steps=1] after';
    const parsed = parseDirective(message);
    if (!parsed?.ok) throw new Error('expected a directive');
    expect(message.slice(parsed.start, parsed.end)).toBe('[sim steps=1]');
  });
});

describe('simDirective', () => {
  it('builds the documented form', () => {
    expect(simDirective({ steps: 5, stepMs: 100, outcome: 'error', size: 60000 })).toBe(
      '[sim steps=5 stepms=100 outcome=error size=60000]',
    );
    expect(simDirective({})).toBe('[sim]');
  });

  it('round-trips through parseDirective, quoting answers', () => {
    const d: Directive = {
      steps: 0,
      stepMs: 7,
      outcome: 'done',
      answer: 'a "quoted" ] answer \\ with [sim steps=9] inside',
      mention: ['here', 'everyone'],
    };
    expect(parseDirective(`x ${simDirective(d)} y`)).toMatchObject({ ok: true, directive: d });
  });
});
