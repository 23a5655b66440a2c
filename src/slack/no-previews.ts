/**
 * Spread into every post that carries service or alert data (DESIGN "No previews"): Slack would
 * otherwise unfurl a link in it — fetch the URL and show its preview — so a link an agent's answer
 * or an alert's sender chose could make Slack call any address, or show a page's content beside
 * log data. `unfurl_media: false` matters as much as `unfurl_links`: media previews are on by default.
 * https://docs.slack.dev/reference/methods/chat.postMessage#unfurling
 */
export const NO_PREVIEWS = { unfurl_links: false, unfurl_media: false } as const;
