import { Lock } from 'lucide-react';

/**
 * The server sends a challenge's phone number to its two players only (a privacy decision);
 * everyone else learns where it goes instead of seeing a blank.
 */
export function PhoneNumber({ phoneNumber }: { phoneNumber: string | null | undefined }) {
  if (phoneNumber) {
    return (
      <a href={`tel:${phoneNumber.replace(/[^\d+]/g, '')}`} className="hover:text-accent-strong">
        {phoneNumber}
      </a>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5 font-normal text-slate-400">
      <Lock aria-hidden="true" className="size-3.5" />
      Shown to your opponent
    </span>
  );
}
