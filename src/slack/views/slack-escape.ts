/**
 * The three characters Slack reserves in message text, escaped as its formatting guide asks:
 * https://docs.slack.dev/messaging/formatting-message-text#escaping
 */
export function escapeSlackText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
