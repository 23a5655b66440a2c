/**
 * One process-wide clock for Slack message timestamps. Slack's `ts` is `<unix seconds>.<6 digits>`,
 * unique per channel and increasing; sharing one clock between the stand-in and the test helpers
 * keeps a person's message and the bot's reply from ever getting the same `ts`.
 */
let lastMicros = 0;

/** The next Slack-style `ts` ('1700000000.000100'): wall-clock based, strictly increasing. */
export function nextSlackTs(): string {
  lastMicros = Math.max(Date.now() * 1000, lastMicros + 1);
  const seconds = Math.floor(lastMicros / 1_000_000);
  const micros = lastMicros % 1_000_000;
  return `${seconds}.${String(micros).padStart(6, '0')}`;
}

/** Compares two Slack timestamps numerically (string order breaks when the seconds part grows a digit). */
export function compareTs(a: string, b: string): number {
  const [as = '0', af = '0'] = a.split('.');
  const [bs = '0', bf = '0'] = b.split('.');
  return Number(as) - Number(bs) || Number(af.padEnd(6, '0')) - Number(bf.padEnd(6, '0'));
}
