import { useEffect, useState } from 'react';

/**
 * A word for the login page from whatever just signed the player out for good (closing the account,
 * docs/responsible-play.md): the session is gone, so the page the player lands on, /auth, says what
 * happened. It lives in memory only, is shown once, and is forgotten when that page is left.
 */
export interface SignedOutNotice {
  title: string;
  description: string;
}

let pending: SignedOutNotice | null = null;

export function leaveSignedOutNotice(notice: SignedOutNotice): void {
  pending = notice;
}

/** The notice left for this visit of the login page, if any; it is gone once the page is left. */
export function useSignedOutNotice(): SignedOutNotice | null {
  const [notice] = useState(() => pending);
  useEffect(
    () => () => {
      if (pending === notice) pending = null;
    },
    [notice],
  );
  return notice;
}
