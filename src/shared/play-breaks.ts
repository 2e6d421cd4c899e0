/**
 * Breaks a player takes from cash play (docs/responsible-play.md), and their wording. A module
 * without zod, like `suspension.ts`, so that the banner the top bar shows can word one without
 * loading zod.
 */
import { formatSuspensionEnd } from './suspension.ts';

export const PLAY_BREAK_KINDS = ['time_out', 'self_exclusion'] as const;
export type PlayBreakKind = (typeof PLAY_BREAK_KINDS)[number];

/** The lengths offered: a time-out in days, a self-exclusion in months. */
export const TIME_OUT_DAYS = [1, 7, 30] as const;
export type TimeOutDays = (typeof TIME_OUT_DAYS)[number];
export const SELF_EXCLUSION_MONTHS = [6, 12, 60] as const;
export type SelfExclusionMonths = (typeof SELF_EXCLUSION_MONTHS)[number];

/** The national problem-gambling helpline, which the footer and the limits page name. */
export const HELPLINE = {
  name: '1-800-GAMBLER',
  tel: '+18004262537',
  url: 'https://www.1800gambler.net',
} as const;

/** A break in force, as the API shows it. */
export interface PlayBreak {
  kind: PlayBreakKind;
  /** ISO 8601: when it ends by itself. */
  until: string;
}

export function timeOutLabel(days: TimeOutDays): string {
  return days === 1 ? '24 hours' : `${days} days`;
}

export function selfExclusionLabel(months: SelfExclusionMonths): string {
  return months === 6 ? '6 months' : months === 12 ? '1 year' : '5 years';
}

/**
 * When a break taken at `from` ends. Months are calendar months in UTC, clamped to the month's
 * last day: six months from 31 August is 28 (or 29) February, never 3 March.
 */
export function playBreakEnd(
  from: Date,
  length: { days: TimeOutDays } | { months: SelfExclusionMonths },
): Date {
  if ('days' in length) return new Date(from.getTime() + length.days * 24 * 60 * 60 * 1000);
  const end = new Date(from.getTime());
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + length.months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

/** What a player on a break is told by every refusal, and by the app's banner. */
export function playBreakMessage(playBreak: PlayBreak): string {
  const end = formatSuspensionEnd(playBreak.until);
  return playBreak.kind === 'time_out'
    ? `You are taking a time-out until ${end}: deposits and challenges are paused until then.`
    : `You have excluded yourself from cash play until ${end}: deposits and challenges are paused until then.`;
}
