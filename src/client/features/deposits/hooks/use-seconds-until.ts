import { useEffect, useState } from 'react';

function secondsUntil(deadlineMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - Date.now()) / 1000));
}

/** Whole seconds left until `isoTime`, ticking every second; null without a deadline. */
export function useSecondsUntil(isoTime: string | null): number | null {
  const deadlineMs = isoTime === null ? Number.NaN : Date.parse(isoTime);
  const valid = Number.isFinite(deadlineMs);
  const [, setTick] = useState(0);

  useEffect(() => {
    if (!valid) return;
    const timer = setInterval(() => setTick((tick) => tick + 1), 1000);
    return () => clearInterval(timer);
  }, [valid, deadlineMs]);

  return valid ? secondsUntil(deadlineMs) : null;
}

/** "19:58", or "1:02:03" past an hour. */
export function formatCountdown(totalSeconds: number): string {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const mmss = `${String(minutes).padStart(hours > 0 ? 2 : 1, '0')}:${String(seconds).padStart(2, '0')}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}
