/**
 * The vendor fills docs/alerts.md's template by plain substitution: a quote, backslash or line break in
 * a description makes a body that is not JSON, so it is read by the template's shape (a member a line).
 */

/** The members of the template (docs/alerts.md), and the older `_json` spellings the parser accepts. */
const TEMPLATE_MEMBERS = (
  'alert_title alert_description alert_severity alert_event_id triggered_id account_id alert_timeframe_start ' +
  'alert_timeframe_end alert_app_url alert_samples alert_samples_json alert_tags alert_tags_json token'
).split(' ');

/** Members a body must show to be read as a template (it has 12): a short malformed body stays refused. */
const TEMPLATE_LIKE = 3;

/** A member at a line's start, after `{` or `,`: names inside a value (a sample's `"token":`) stay in it. */
const MEMBER = new RegExp(`[{,][ \\t]*\\r?\\n[ \\t]*"(${TEMPLATE_MEMBERS.join('|')})"[ \\t]*:`, 'g');

/** A filled-in template that is not JSON, by its members (quoted: as substituted; else JSON or text). */
export function readTemplateBody(raw: string): Record<string, unknown> | undefined {
  const body = raw.trim();
  if (!body.startsWith('{') || !body.endsWith('}')) return undefined;
  const inner = body.slice(0, -1);
  // `at`: where the member's match begins (the separator before it); `valueAt`: after its colon.
  const found = [...inner.matchAll(MEMBER)].map((match) => ({
    name: match[1] as string,
    at: match.index ?? 0,
    valueAt: (match.index ?? 0) + match[0].length,
  }));
  const members: Record<string, unknown> = {};
  found.forEach((member, index) => {
    const next = found[index + 1];
    // The value runs to the separator before the next member (its match starts at that comma).
    const text = inner
      .slice(member.valueAt, next ? next.at : inner.length)
      .trim()
      .replace(/,$/, '');
    if (!(member.name in members)) members[member.name] = memberValue(text);
  });
  const template = found.length >= TEMPLATE_LIKE && typeof members.alert_title === 'string';
  return template ? members : undefined;
}

function memberValue(text: string): unknown {
  // The vendor substituted raw text: what stands between the quotes is the value, backslashes too.
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1);
  const parsed = parseJson(text);
  return parsed === undefined ? text : parsed;
}

/** `text` as JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
