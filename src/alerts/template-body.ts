/**
 * The vendor's custom endpoint fills the template in docs/alerts.md by plain text substitution: an alert
 * whose description holds a double quote, a backslash or a line break arrives as a body that is
 * not JSON. Refusing it would lose the alert, so a body that is not JSON is read once more by the
 * template's own shape, one member a line as docs/alerts.md writes it: each known member name at the
 * start of a line, its value running to the next known member or the closing brace.
 */

/** The members of the template (docs/alerts.md), and the older `_json` spellings the parser accepts. */
const TEMPLATE_MEMBERS = [
  'alert_title',
  'alert_description',
  'alert_severity',
  'alert_event_id',
  'triggered_id',
  'account_id',
  'alert_timeframe_start',
  'alert_timeframe_end',
  'alert_app_url',
  'alert_samples',
  'alert_samples_json',
  'alert_tags',
  'alert_tags_json',
  'token',
] as const;

/**
 * Members a body must show to be read as a filled-in template (docs/alerts.md's has 12): a short
 * malformed body is refused as not JSON, as before.
 */
const TEMPLATE_LIKE = 3;

/**
 * A member where the template puts one: at the start of a line, after the `{` or `,` that ends the
 * line before. Names inside a value (a sample's `"token":` field, say) stay part of the value.
 */
const MEMBER = new RegExp(`[{,][ \\t]*\\r?\\n[ \\t]*"(${TEMPLATE_MEMBERS.join('|')})"[ \\t]*:`, 'g');

/**
 * The members of a filled-in template that is not valid JSON, or undefined when `raw` does not
 * look like one (not `{…}`, fewer than three known members, or no `alert_title`). A quoted value
 * is the text between its quotes, as substituted; an unquoted one (samples, tags) is parsed as
 * JSON when it is, and kept as text otherwise.
 */
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
