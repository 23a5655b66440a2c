/** "2026-W48": the ISO 8601 week (Monday to Sunday, UTC) of an epoch-ms instant. */
export function isoWeekOf(ms: number): string {
  const date = new Date(ms);
  const day = date.getUTCDay() || 7;
  // The Thursday of this week decides the week's year (ISO 8601).
  const thursday = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 4 - day);
  const year = new Date(thursday).getUTCFullYear();
  const week = Math.ceil(((thursday - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The name a week's figures are kept under: with OAuth, prefixed with the installation's id. */
export function weekTally(isoWeek: string, installation: string | undefined): string {
  return installation === undefined ? isoWeek : `${installation}/${isoWeek}`;
}
