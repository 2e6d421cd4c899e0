import { ChevronDown, UserRound } from 'lucide-react';

/** What the PROFILE button shows, the same before and after its menu has loaded. */
export function ProfileButtonFace() {
  return (
    <>
      <UserRound aria-hidden="true" />
      PROFILE
      <ChevronDown aria-hidden="true" />
    </>
  );
}
