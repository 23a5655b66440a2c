/**
 * A Markdown link whose label reads like an address (`[https://good.example/login](https://evil.example/steal)`,
 * `[good.example](https://evil.example)`) is a disguise: Slack's `markdown` block shows the label
 * and opens the target. Agent output is untrusted (log lines reach the agent), so such a link is
 * rewritten as `label (target)`: both addresses in plain sight, neither hidden behind the other.
 * Links whose label is words ("the runbook"), or an address on the target's own host, stay links.
 */

/** `[label](target)`, `[label](<target>)`, `[label](target "title")`; one level of brackets in the label. */
const MARKDOWN_LINK =
  /(!?)\[((?:[^[\]\n]|\[[^[\]\n]*\])+)\]\(\s*(<[^<>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()<>]*)*)(\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)/g;

/** A scheme URL, `www.`-something, or a dotted host name ending in a letters-only TLD (with an optional path). */
const ADDRESS_LIKE =
  /^(?:[a-z][a-z0-9+.-]*:\/\/\S+|www\.\S+|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(?::\d+)?(?:[/?#]\S*)?|mailto:\S+)$/i;

/** The label as a reader sees it: emphasis, code marks and surrounding `<>` taken off. */
function bareLabel(label: string): string {
  return label
    .trim()
    .replace(/^[*_~`]+|[*_~`]+$/g, '')
    .replace(/^<(.*)>$/, '$1')
    .trim();
}

/** The host an address names (lower case, no `www.`), or undefined when it names none. */
export function hostOf(address: string): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(address) ? address : `https://${address}`;
  try {
    const host = new URL(withScheme).hostname.toLowerCase().replace(/^www\./, '');
    return host === '' ? undefined : host;
  } catch {
    return undefined;
  }
}

/** True when `label` reads as an address of another host than `target` (or target has none). */
export function isDisguised(label: string, target: string): boolean {
  const shown = bareLabel(label);
  if (!ADDRESS_LIKE.test(shown)) return false;
  const shownHost = shown.toLowerCase().startsWith('mailto:') ? shown.toLowerCase() : hostOf(shown);
  const targetHost = target.toLowerCase().startsWith('mailto:') ? target.toLowerCase() : hostOf(target);
  return shownHost === undefined || targetHost === undefined || shownHost !== targetHost;
}

/** Rewrites every disguised Markdown link in prose (not code) as `label (target)`. Images stay. */
export function revealDisguisedLinks(text: string): string {
  return text.replace(MARKDOWN_LINK, (link: string, bang: string, label: string, rawTarget: string) => {
    if (bang) return link;
    const target = rawTarget.replace(/^<|>$/g, '');
    return isDisguised(label, target) ? `${label} (${target})` : link;
  });
}
