/** A snooze the console offers: its words and until when. */
export interface SnoozeChoice {
  label: string;
  until: Date;
}

/**
 * The snoozes offered at `now`, in the operator's own time zone: an hour, this evening's
 * 18:00 when still ahead, tomorrow 9:00, and next Monday 9:00.
 * @example snoozeChoices(new Date('2026-03-04T10:00:00'))[0].label // 'For an hour'
 */
export function snoozeChoices(now: Date): SnoozeChoice[] {
  const at = (days: number, hour: number) => {
    const d = new Date(now);
    d.setDate(d.getDate() + days);
    d.setHours(hour, 0, 0, 0);
    return d;
  };
  const choices: SnoozeChoice[] = [{ label: 'For an hour', until: new Date(now.getTime() + 3_600_000) }];
  const evening = at(0, 18);
  if (evening.getTime() - now.getTime() > 3_600_000) choices.push({ label: 'Until this evening (18:00)', until: evening });
  choices.push({ label: 'Until tomorrow (9:00)', until: at(1, 9) });
  const toMonday = (8 - now.getDay()) % 7 || 7;
  choices.push({ label: 'Until next Monday (9:00)', until: at(toMonday, 9) });
  return choices;
}
