/**
 * Spread into every post that carries service or alert data (DESIGN "No previews"): else a link an
 * answer or an alert chose could make Slack fetch any address, or show a page beside log data.
 * Media previews are on by default too. https://docs.slack.dev/reference/methods/chat.postMessage#unfurling
 */
export const NO_PREVIEWS = { unfurl_links: false, unfurl_media: false } as const;
