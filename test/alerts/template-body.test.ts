import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAlertBody } from '../../src/alerts/alert-payload.js';
import { readTemplateBody } from '../../src/alerts/template-body.js';

/** The template in docs/alerts.md, as a newcomer pastes it into the vendor's custom endpoint. */
function readmeTemplate(): string {
  const readme = readFileSync(new URL('../../docs/alerts.md', import.meta.url), 'utf8');
  const block = /```json\n(\{\n {2}"alert_title": "\{\{alert_title\}\}",[\s\S]*?\n\})\n```/.exec(readme)?.[1];
  if (!block) throw new Error('docs/alerts.md has no alert template');
  return block;
}

/** What the vendor sends: each `{{variable}}` replaced by its text, nothing escaped. */
function filled(values: Record<string, string>): string {
  return readmeTemplate()
    .replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '')
    .replace(/\n {2}"token": .*\n/, '\n');
}

const VALUES = {
  alert_title: 'Errors "spiking" in checkout',
  alert_description: 'Count of level:error > 100\nin "payments" \\ checkout, see C:\\logs',
  alert_severity: 'HIGH',
  alert_event_id: 'ev-42',
  triggered_id: '7788',
  account_id: '123456',
  alert_timeframe_start: '2026-11-25T10:00:00Z',
  alert_timeframe_end: '2026-11-25T10:15:00Z',
  alert_app_url: 'https://app.logz.io',
  alert_samples_json: '[{"message":"timeout \\"db\\"","host":"checkout-1"}]',
  alert_tags_json: '["checkout","prod"]',
};

describe('reading a filled-in template that is not JSON', () => {
  it('reads every member of the README template when the text holds quotes, backslashes and line breaks', () => {
    const raw = filled(VALUES);
    expect(() => JSON.parse(raw)).toThrow();
    const members = readTemplateBody(raw);
    expect(members).toMatchObject({
      alert_title: 'Errors "spiking" in checkout',
      alert_description: 'Count of level:error > 100\nin "payments" \\ checkout, see C:\\logs',
      alert_severity: 'HIGH',
      alert_event_id: 'ev-42',
      alert_timeframe_end: '2026-11-25T10:15:00Z',
      alert_samples: [{ message: 'timeout "db"', host: 'checkout-1' }],
      alert_tags: ['checkout', 'prod'],
    });
    const parsed = parseAlertBody(members);
    expect(parsed.ok && parsed.alert).toMatchObject({
      title: 'Errors "spiking" in checkout',
      severity: 'HIGH',
      tags: ['checkout', 'prod'],
      windowStart: Date.parse('2026-11-25T10:00:00Z'),
    });
  });

  it('keeps values as substituted (escapes included) and samples that are not JSON as text', () => {
    const members = readTemplateBody(
      filled({ ...VALUES, alert_title: 'Disk \\u0041 "full" C:\\new', alert_samples_json: 'host=a "x"' }),
    );
    expect(members?.alert_title).toBe('Disk \\u0041 "full" C:\\new');
    expect(members?.alert_samples).toBe('host=a "x"');
  });

  it('keeps a member name inside a value (a sample’s "token" field) part of that value', () => {
    const samples = '[{"message":"login failed","token":"abc","account_id":"9"}]';
    const members = readTemplateBody(filled({ ...VALUES, alert_samples_json: samples }));
    expect(members?.alert_samples).toEqual([{ message: 'login failed', token: 'abc', account_id: '9' }]);
    expect(members?.account_id).toBe('123456');
    expect(members).not.toHaveProperty('token');
  });

  const refused: Array<[string, string]> = [
    ['plain text', 'not json at all'],
    ['a cut body', '{"alert_title": "cut'],
    ['one member with a trailing comma', '{"alert_title": "x",}'],
    ['unquoted names', '{alert_title: "x", alert_severity: "HIGH", triggered_id: "1"}'],
    ['no title', '{"alert_severity": "HIGH", "triggered_id": "1 "2"", "account_id": "3"}'],
    ['an array', '[{"alert_title": "x"}, "alert_severity": "y"]'],
    ['the template on one line', '{"alert_title": "a "b"", "alert_severity": "HIGH", "triggered_id": "1"}'],
  ];
  it.each(refused)('does not read %s', (_name, raw) => {
    expect(readTemplateBody(raw)).toBeUndefined();
  });
});
